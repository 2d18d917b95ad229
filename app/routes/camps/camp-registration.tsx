import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link, redirect } from 'react-router'
import type { Route } from './+types/camp-registration'
import { AuthCard, FormAlert, HoneypotField, PendingButton, TextField, useLazyValidatedForm, type FieldConstraints } from '~/components/form-controls'
import { BatchFull } from '~/components/camp-answers'
import { DeclarationField } from '~/components/declaration-field'
import { callerOf, getUser } from '~/web/auth.server'
import { holderOf } from '~/web/holders/holder.server'
import { afterTheLine, type CampApplicantFields } from '~/web/camps/after-the-camp-line.server'
import { formatWholeRupees } from '~/lib/money'
import { formatDateRange, formatLabDateTime, formatLastDayBefore, formatTimeRange } from '~/lib/lab-time'
import { rejectBots } from '~/web/honeypot'
import { CAMP_LINE_LINK, privateLinkPath, WAITLIST_OFFER_LINK } from '~/lib/private-links.server'
import { pageMeta } from '~/lib/seo'
import { campChoices } from '~/modules/camps/camps.server'
import { campsWithPaidSwimmer } from '~/modules/camps/pricing.server'
import { siblingDiscountOf } from '~/modules/camps/sibling-price'
import { joinCampLine, settledArrival } from '~/modules/camps/line.server'
import { arriving } from '~/modules/holders/arrivals.server'
import { CampRegistrationSchema, type CampRegistrationInput } from '~/modules/camps/schemas'
import { joinWaitlist } from '~/modules/camps/waitlist.server'
import { readForm } from '~/web/form-data.server'
import { formIntent } from '~/web/intent'
import { formErrorsOf, refusalOf } from '~/web/refusals.server'
import { CampAndBatchFields, FAMILY_INTENT, FamilyRegistrationForm, type FamilyAccount } from '~/components/camp-family-form'
import { CampFamilySchema, type CampFamilyInput } from '~/modules/camps/family-schemas'
import { holdFamilySeats, swimmerChoices } from '~/modules/camps/groups.server'
import { PROMO_CODE_HINT } from '~/components/camp-family-form'
import { CampPromoAndPrice, useCampQuote } from '~/components/camp-live-quote'
import { skipRevalidationAfterQuote } from '~/components/camp-quote-action'
import { checkout, previewCode } from '~/modules/payments/checkout.server'
import { formatPhone, toE164 } from '~/lib/phone'
import { WhatsAppOptInField } from '~/components/whatsapp-opt-in'
import { whatsappEnabled } from '~/modules/whatsapp/config.server'
import { requestIfTicked, WHATSAPP_OPT_IN_WORDING, type WhatsAppBox } from '~/modules/whatsapp/consent.server'
import { campRegistrationLink } from '~/lib/links'

// The live price is posted as the parent chooses: the camps and seats shown stay as they are.
export const shouldRevalidate = skipRevalidationAfterQuote

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: 'Camp Registration', description: 'Register a swimmer for a swimming camp in Bangalore and pay the fee online.', path: href('/onboarding') })

/**
 * The attributes of the two forms' fields (which are required), worked out once: the page shows its
 * form with them and loads the schema that checks it as you type afterwards.
 */
const CONSTRAINTS = { applicant: getZodConstraint(CampRegistrationSchema), family: getZodConstraint(CampFamilySchema) }

export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams
  const camps = await campChoices()
  return {
    camps: camps.map((camp) => ({
      code: camp.code,
      label: `${camp.name}: ${formatDateRange(camp.startsOn, camp.endsOn)}`,
      open: camp.open,
      price: formatWholeRupees(camp.pricePaise),
      pricePaise: camp.pricePaise,
      sibling: siblingDiscountOf(camp),
      earlyBirdUntil: camp.earlyBird ? formatLastDayBefore(new Date(camp.earlyBirdEndsAt)) : null,
      batches: camp.batches.map((batch) => ({
        code: batch.code,
        label: `${batch.name}: ${batch.timeRanges.map((range) => formatTimeRange(range.start, range.end)).join(' and ')}`,
        seatsLeft: batch.seatsLeft,
      })),
    })),
    // "Register Another Person" keeps the parent's e-mail and phone.
    prefill: { email: params.get('email') ?? '', phone_number: readablePhone(params.get('phone') ?? '') },
    account: await familyAccount(request),
    whatsappOptIn: whatsappEnabled() ? WHATSAPP_OPT_IN_WORDING : null,
    constraints: CONSTRAINTS,
  }
}

/** The form's WhatsApp box: the number a parent asked WhatsApp messages for is asked to confirm once their registration is made (requestIfTicked). */
function whatsappBoxOf(form: { phone_number: string; whatsappOptIn: boolean }): WhatsAppBox {
  return { phone: form.phone_number, ticked: form.whatsappOptIn, source: 'camp' }
}

/** A signed-in parent with swimmers chooses among them (camp-family-form.tsx); anyone else types the swimmer's name. */
async function familyAccount(request: Request): Promise<FamilyAccount | null> {
  const user = await getUser(request)
  if (!user) return null
  const swimmers = await swimmerChoices(user.id)
  return swimmers.length ? { email: user.email, phone: user.phone ? formatPhone(user.phone) : '', swimmers, campsWithPaidSwimmer: await campsWithPaidSwimmer(user.id) } : null
}

type Applicant = Pick<CampRegistrationInput, 'name' | 'email' | 'phone_number' | 'camp' | 'batch' | 'whatsappOptIn'>

type ActionResult =
  | { kind: 'edit'; values: Partial<Record<keyof Applicant, string>> }
  | { kind: 'invalid'; result: SubmissionResult<string[]> }
  | { kind: 'failed'; result: SubmissionResult<string[]> }
  | { kind: 'full'; message: string; applicant: CampApplicantFields }
  | { kind: 'waitlisted'; campName: string; batchName: string; confirmBy: string; email: string; phone: string }
  | { kind: 'family'; result: SubmissionResult<string[]> }

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request)
  rejectBots(formData)
  const intent = formIntent(formData, ['register', 'edit', 'waitlist', FAMILY_INTENT])
  if (intent === FAMILY_INTENT) return registerSwimmers(request, context, formData)
  // Try Again: the form once more, with what the parent typed (nothing is checked or kept).
  if (intent === 'edit') return data<ActionResult>({ kind: 'edit', values: applicantValues(formData) })
  const submission = parseWithZod(formData, { schema: CampRegistrationSchema })
  if (submission.status !== 'success') return data<ActionResult>({ kind: 'invalid', result: submission.reply() }, { status: 400 })
  const form: CampRegistrationInput = submission.value
  const applicant = { swimmerName: form.name, email: form.email, phone: form.phone_number, guardianDeclaration: form.guardianDeclaration }
  const { ip } = callerOf(request, context)
  const user = await getUser(request)

  try {
    if (intent === 'waitlist') {
      const place = await joinWaitlist({ campCode: form.camp, batchCode: form.batch, applicant, accountId: user?.id ?? null, ip })
      await requestIfTicked(whatsappBoxOf(form))
      return data<ActionResult>({ kind: 'waitlisted', campName: place.campName, batchName: place.batchName, confirmBy: formatLabDateTime(place.confirmBy), email: form.email, phone: form.phone_number })
    }
    const { holder, setCookie } = await holderOf(request, context, { userId: user?.id ?? null, email: form.email })
    const headers = setCookie ? { 'Set-Cookie': setCookie } : undefined
    // Every registration joins the camp line. With few parents registering on this instance the
    // outcome comes in a moment and is answered here; in a rush, the parent is answered at once
    // with the page of their place in line, which shows their outcome when their turn has come.
    // A promo code is checked before the parent joins the line, and applied once a seat is held.
    // It stays with the place in line, never in the address of the place's page.
    if (form.promoCode) await previewCode({ code: form.promoCode, product: 'camp', customer: { accountId: null, email: form.email }, pricesPaise: [], network: holder.network })
    return await arriving(async (quiet) => {
      const place = await joinCampLine({ campCode: form.camp, batchCode: form.batch, applicant, holder, promoCode: form.promoCode || null })
      await requestIfTicked(whatsappBoxOf(form))
      const arrival = quiet ? await settledArrival(place.id, QUIET_WAIT_MS) : undefined
      if (!arrival?.outcome) return redirect(await privateLinkPath(CAMP_LINE_LINK, place.id), { status: 303, headers })
      const next = await afterTheLine(arrival, { network: holder.network })
      if ('go' in next) return redirect(next.go, { headers })
      if (next.answer.kind === 'full') return data<ActionResult>({ ...next.answer, kind: 'full' }, { status: next.status, headers })
      return data<ActionResult>({ kind: 'failed', result: submission.reply({ formErrors: [next.answer.message] }) }, { status: next.status, headers })
    })
  } catch (error) {
    const refusal = refusalOf(error)
    // A refusal about one field (a promo code that does not apply) is said next to it, the form as it was.
    return data<ActionResult>({ kind: refusal.error.field ? 'invalid' : 'failed', result: submission.reply(formErrorsOf(refusal)) }, { status: refusal.status })
  }
}

/**
 * A signed-in parent's swimmers, registered together: their seats are held at once (all or none)
 * and the parent goes to pay for all of them in one payment.
 */
async function registerSwimmers(request: Request, context: Route.ActionArgs['context'], formData: FormData) {
  const user = await getUser(request)
  const submission = parseWithZod(formData, { schema: CampFamilySchema })
  // Signed out since the page was shown: the ordinary form, from the start.
  if (!user) return redirect(href('/onboarding'), 303)
  if (submission.status !== 'success') return data<ActionResult>({ kind: 'family', result: submission.reply() }, { status: 400 })
  const form: CampFamilyInput = submission.value
  const { holder, setCookie } = await holderOf(request, context, { userId: user.id, email: user.email })
  const headers = setCookie ? { 'Set-Cookie': setCookie } : undefined
  const refused = (error: unknown) => {
    const refusal = refusalOf(error)
    return data<ActionResult>({ kind: 'family', result: submission.reply(formErrorsOf(refusal)) }, { status: refusal.status, headers })
  }
  try {
    // A promo code is checked before any seat is held, and applied once they are.
    if (form.promoCode) await previewCode({ code: form.promoCode, product: 'camp', customer: { accountId: user.id, email: user.email }, pricesPaise: [], network: holder.network })
    const held = await holdFamilySeats({
      accountId: user.id,
      swimmerIds: form.swimmers.map(Number),
      campCode: form.camp,
      batchCode: form.batch,
      contact: { email: user.email, phone: form.phone_number },
      holder,
    })
    // The summary of what they will pay comes before the gateway: they pay from it (/onboarding/offer).
    const checked = await checkout({
      payable: { kind: 'camp', id: held.leadId },
      whatsapp: whatsappBoxOf(form),
      promo: form.promoCode ? { code: form.promoCode, network: holder.network, givesUpWhen: 'refused' } : undefined,
    })
    if ('refused' in checked) return refused(checked.refused)
    return redirect(await privateLinkPath(WAITLIST_OFFER_LINK, held.registrations[0]!.reference), { headers })
  } catch (error) {
    return refused(error)
  }
}

/** How long a registration waits for its outcome, when few arrive, before it is answered with the place in line instead. */
const QUIET_WAIT_MS = 3_000

const APPLICANT_FIELDS = ['name', 'email', 'phone_number', 'camp', 'batch', 'whatsappOptIn'] as const

/** The applicant's fields of a form as typed, each cut to a length no real answer reaches. */
function applicantValues(formData: FormData) {
  const values: Partial<Record<keyof Applicant, string>> = {}
  for (const name of APPLICANT_FIELDS) {
    const value = formData.get(name)
    if (typeof value === 'string' && value !== '') values[name] = value.slice(0, 200)
  }
  if (values.phone_number) values.phone_number = readablePhone(values.phone_number)
  return values
}

/** A number as the form shows it: a kept one (E.164) as people read it, anything else as it came. */
function readablePhone(phone: string) {
  const e164 = toE164(phone)
  return e164 ? formatPhone(e164) : phone
}

export default function CampRegistration({ loaderData, actionData }: Route.ComponentProps) {
  const { camps, prefill, account, whatsappOptIn, constraints } = loaderData
  if (account && (!actionData || actionData.kind === 'family'))
    return <FamilyRegistrationForm key={actionData ? 'answered' : 'new'} camps={camps} account={account} lastResult={actionData?.result} whatsappOptIn={whatsappOptIn} constraint={constraints.family} />
  if (actionData?.kind === 'family') return <RegistrationForm key="new" camps={camps} prefill={prefill} actionData={undefined} whatsappOptIn={whatsappOptIn} constraint={constraints.applicant} />
  if (actionData?.kind === 'waitlisted') return <Waitlisted {...actionData} />
  if (actionData?.kind === 'full') return <BatchFull {...actionData} />
  // A fresh form for each answer, so Try Again starts from what the parent typed.
  return <RegistrationForm key={actionData?.kind ?? 'new'} camps={camps} prefill={prefill} actionData={actionData} whatsappOptIn={whatsappOptIn} constraint={constraints.applicant} />
}

type Camps = Route.ComponentProps['loaderData']['camps']

function RegistrationForm({
  camps,
  prefill,
  actionData,
  whatsappOptIn,
  constraint,
}: {
  camps: Camps
  prefill: { email: string; phone_number: string }
  actionData: Extract<ActionResult, { kind: 'edit' | 'invalid' | 'failed' }> | undefined
  whatsappOptIn: string | null
  constraint: FieldConstraints
}) {
  const firstOpen = camps.find((camp) => camp.open)
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/camps/schemas').then((schemas) => schemas.CampRegistrationSchema), {
    constraint,
    lastResult: actionData?.kind === 'edit' ? undefined : actionData?.result,
    defaultValue: actionData?.kind === 'edit' ? { camp: firstOpen?.code, ...actionData.values } : { ...prefill, camp: firstOpen?.code },
  })
  const chosenCamp = camps.find((camp) => camp.code === fields.camp.value) ?? firstOpen
  const failed = actionData?.kind === 'failed'
  const quote = useCampQuote({ camp: chosenCamp?.code, batch: fields.batch.value, name: fields.name.value, email: fields.email.value }, fields.promoCode.value)

  return (
    <AuthCard title="Camp Registration Form" lead={<p>Fill in details to register for swimming camp</p>} wide>
      {!firstOpen ? (
        <p className="rounded-lg bg-slate-100 p-4 text-ink">Registration is closed for every camp at the moment. Please check back soon.</p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="space-y-6">
          {failed && (
            <div className="space-y-3">
              <FormAlert id={form.errorId} errors={form.errors} />
              <button type="submit" name="intent" value="edit" formNoValidate className="btn-secondary">
                Try Again
              </button>
            </div>
          )}
          <HoneypotField />
          <TextField field={fields.name} label="Full Name" autoComplete="name" />
          <TextField field={fields.email} label="Email Address" type="email" autoComplete="email" />
          <TextField field={fields.phone_number} label="Phone Number" type="tel" inputMode="tel" autoComplete="tel" />
          {whatsappOptIn && <WhatsAppOptInField field={fields.whatsappOptIn} wording={whatsappOptIn} />}

          <CampAndBatchFields camps={camps} campField={fields.camp} batchField={fields.batch} />
          <CampPromoAndPrice field={fields.promoCode} hint={PROMO_CODE_HINT} quote={quote} />

          <DeclarationField field={fields.guardianDeclaration}>
            The swimmer is 18 or older, or I am their parent or legal guardian and agree to the{' '}
            <Link to={href('/privacy-policy')} className="font-semibold text-brand-700 underline">
              Privacy Policy
            </Link>{' '}
            for their data.
          </DeclarationField>

          <PendingButton name="intent" value="register" when={{ action: href('/onboarding'), untilLoaded: true }} pendingLabel="Registering..." className="btn-primary w-full">
            {/* With a promo code the price is the server's to say: live once applied, else on the summary. */}
            {quote.total ? `Register Now - ${quote.total}` : fields.promoCode.value ? 'Register Now' : `Register Now - ${(chosenCamp ?? firstOpen).price}`}
          </PendingButton>
          <p className="text-sm text-muted">Next you see what you will pay, then pay on our payment partner's secure page. We hold your seat for a few minutes meanwhile.</p>
        </Form>
      )}
    </AuthCard>
  )
}

function Waitlisted({ campName, batchName, confirmBy, email, phone }: { campName: string; batchName: string; confirmBy: string; email: string; phone: string }) {
  return (
    <AuthCard title="Please check your e-mail" wide>
      <div role="status" className="space-y-3 text-ink">
        <p>{`${batchName} of ${campName} is full. We have e-mailed ${email} a link to confirm the place on its waitlist.`}</p>
        <p>{`Please open the link and press the button by ${confirmBy} to keep the place: your place in the queue counts from then. Without it, the place lapses.`}</p>
        <p>When a seat frees up we hold it for you and e-mail you a link to pay. There is nothing to pay until then.</p>
      </div>
      {/* The next swimmer's form keeps the parent's e-mail and phone. */}
      <Link to={campRegistrationLink({ email, phone })} className="btn-secondary mt-6">
        Register another person
      </Link>
    </AuthCard>
  )
}
