import { data } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/camp-registration.quote'
import { DomainError } from '~/lib/domain-error'
import { formatWholeRupees } from '~/lib/money'
import { CampFamilySchema } from '~/modules/camps/family-schemas'
import { CampRegistrationSchema } from '~/modules/camps/schemas'
import { quoteDraft } from '~/modules/payments/checkout.server'
import { quoteRows, type CampQuoteAnswer } from '~/modules/payments/quote'
import { clientNetwork } from '~/modules/rate-limit/client-network'
import { callerOf, getUser } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { refusalOf } from '~/web/refusals.server'

const NO_STORE = { 'Cache-Control': 'no-store' }

/** What the camp forms send as the parent chooses: each value bounded as the forms bound it. */
const QuerySchema = z.object({
  camp: CampRegistrationSchema.shape.camp,
  batch: CampRegistrationSchema.shape.batch,
  /** A signed-in parent's swimmers, by id. */
  swimmers: CampFamilySchema.shape.swimmers.optional(),
  /** The swimmer's name on the form without an account, as typed so far (only their line's label). */
  name: z.string().trim().max(100).optional(),
  /** The e-mail address typed on the form without an account: a promo code's uses per customer count by it. */
  email: z.string().trim().max(254).optional(),
  promoCode: CampRegistrationSchema.shape.promoCode,
})

/**
 * The price of a camp order before anything is held, for the camp forms with JavaScript as the
 * parent chooses: the same quote (payments' quoteDraft) the summary will store after the seats are
 * held. A promo code is counted as an attempt at it, so the forms send it only once the parent applies it.
 * Posted, never asked in an address: the guest's name and e-mail address stay out of every log and history.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const params = await readForm(request)
  const parsed = QuerySchema.safeParse({ ...Object.fromEntries(params), swimmers: params.has('swimmers') ? params.getAll('swimmers') : undefined })
  if (!parsed.success) return answer({ rows: null, total: null, promoError: null, error: parsed.error.issues[0]!.message }, 400)
  const query = parsed.data
  const user = await getUser(request)
  // Only a signed-in parent chooses swimmers, and only their own.
  if (query.swimmers && !user) return answer({ rows: null, total: null, promoError: null, error: 'Please sign in to choose your swimmers.' }, 403)
  try {
    const { quote, refusal } = await quoteDraft({
      kind: 'camp',
      draft: { campCode: query.camp, batchCode: query.batch, swimmers: query.swimmers && user ? { accountId: user.id, ids: query.swimmers.map(Number) } : { name: query.name ?? '' } },
      code: query.promoCode || null,
      customer: user ? { accountId: user.id, email: user.email } : { accountId: null, email: query.email ?? '' },
      network: clientNetwork(callerOf(request, context).ip),
    })
    return answer({ rows: quoteRows(quote), total: formatWholeRupees(quote.totalPaise), promoError: refusal?.message ?? null, error: null }, 200)
  } catch (error) {
    // Another account's swimmer: refused, and nothing said about it.
    if (error instanceof DomainError && error.kind === 'not_found') return answer({ rows: null, total: null, promoError: null, error: error.message }, 404)
    const refusal = refusalOf(error)
    return answer({ rows: null, total: null, promoError: null, error: refusal.message }, refusal.status)
  }
}

function answer(body: CampQuoteAnswer, status: number) {
  return data(body, { status, headers: NO_STORE })
}
