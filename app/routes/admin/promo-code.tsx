import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { Form, href, Link } from 'react-router'
import type { Route } from './+types/promo-code'
import { FormAlert, PendingButton, useValidatedForm } from '~/components/form-fields'
import { PromoCodeFields } from '~/components/promo-code-fields'
import { requireAdmin } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { submitOnlyForm } from '~/web/page-forms.server'
import { formIntent, unknownForm } from '~/web/intent'
import { basisPointsToPercentInput, paiseToRupeesInput } from '~/lib/money'
import { refuseNul } from '~/web/nul.server'
import { notFoundUnless } from '~/web/refusals.server'
import { rowId } from '~/lib/row-id'
import { redirectWithToast } from '~/web/toast.server'
import { promoCodeDetails, PromoCodeSchema } from '~/modules/promotions/staff-schemas'
import { promoCodeRow, promoValidDates } from '~/modules/promotions/staff-rows'
import { promoProductsText } from '~/modules/promotions/texts'
import { setPromoCodeActive, staffPromoCode, updatePromoCode } from '~/modules/promotions/staff.server'
import { adminPromoCodeLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.code.code ?? 'Promo code'} | Admin` }, { name: 'robots', content: 'noindex' }]

async function foundCode(params: Route.LoaderArgs['params']) {
  const id = rowId(params.id)
  const code = id === null ? null : await staffPromoCode(id)
  notFoundUnless(code)
  return code
}

export async function loader({ request, params }: Route.LoaderArgs) {
  refuseNul(request, params)
  await requireAdmin(request)
  const code = await foundCode(params)
  const row = promoCodeRow(code)
  return {
    code: {
      id: code.id,
      code: code.code,
      active: code.active,
      summary: `${row.discount} off ${promoProductsText(code.products)}. ${row.validity}. Used ${row.uses}, ${row.held}; discount given ${row.discountGiven}.`,
      codeLockedBecause: code.applied > 0 ? 'Orders have already used this code, so its text can no longer be changed (receipts name it). Create a new code instead.' : null,
      form: {
        code: code.code,
        description: code.description,
        discountKind: code.discountKind,
        discountValue: code.discountKind === 'percent' ? basisPointsToPercentInput(code.discountValue) : paiseToRupeesInput(code.discountValue),
        ...promoValidDates(code),
        maxUses: code.maxUses === null ? undefined : String(code.maxUses),
        maxUsesPerCustomer: code.maxUsesPerCustomer === null ? undefined : String(code.maxUsesPerCustomer),
      },
      products: code.products,
    },
  }
}

const INTENTS = ['update', 'activate', 'deactivate'] as const

export async function action({ request, params }: Route.ActionArgs) {
  refuseNul(request, params)
  const admin = await requireAdmin(request)
  const { id } = await foundCode(params)
  const actor = { id: admin.id, email: admin.email }
  const here = adminPromoCodeLink(id)
  const formData = await readForm(request)
  switch (formIntent(formData, INTENTS)) {
    case 'update': {
      return submitOnlyForm(formData, PromoCodeSchema, async (value) => {
        const { changed } = await updatePromoCode(actor, id, promoCodeDetails(value))
        return redirectWithToast(here, changed.length ? { type: 'success', title: 'Promo code saved' } : { type: 'info', title: 'Nothing changed' })
      })
    }
    case 'activate':
    case 'deactivate': {
      const active = formIntent(formData, INTENTS) === 'activate'
      await setPromoCodeActive(actor, id, active)
      return redirectWithToast(here, { type: 'success', title: active ? 'Promo code activated' : 'Promo code deactivated', description: active ? 'Customers can use it again.' : 'Customers can no longer use it; orders holding it keep it.' })
    }
    default:
      return unknownForm()
  }
}

export default function AdminPromoCode({ loaderData, actionData }: Route.ComponentProps) {
  const { code } = loaderData
  return (
    <section>
      <Link to={href('/admin/promo-codes')} className="link text-sm">
        All promo codes
      </Link>
      <h1 className="mt-2 font-mono text-3xl font-extrabold text-brand-900">{code.code}</h1>
      <p className="mt-1 text-muted">
        {code.active ? 'Active' : 'Inactive'}. {code.summary}
      </p>
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value={code.active ? 'deactivate' : 'activate'} />
        <PendingButton when={{ fields: { intent: code.active ? 'deactivate' : 'activate' } }} className="btn-secondary">
          {code.active ? 'Deactivate' : 'Activate'}
        </PendingButton>
      </Form>
      <EditForm key={JSON.stringify(code.form) + code.products.join()} code={code} lastResult={actionData} />
    </section>
  )
}

function EditForm({ code, lastResult }: { code: Route.ComponentProps['loaderData']['code']; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useValidatedForm(PromoCodeSchema, {
    lastResult,
    // The products are a list; useValidatedForm's type only describes flat forms.
    defaultValue: { ...code.form, products: code.products } as unknown as Record<string, string>,
  })
  return (
    <section aria-labelledby="promo-code-details" className="card mt-8 p-6">
      <h2 id="promo-code-details" className="text-xl font-bold text-ink">
        Details
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-6">
        <FormAlert id={form.errorId} errors={form.errors} />
        <PromoCodeFields fields={fields} codeLockedBecause={code.codeLockedBecause} />
        <PendingButton name="intent" value="update" when={{ fields: { intent: 'update' } }} pendingLabel="Saving...">
          Save promo code
        </PendingButton>
      </Form>
    </section>
  )
}
