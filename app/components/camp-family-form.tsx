import { getFormProps, type FieldMetadata, type SubmissionResult } from '@conform-to/react'
import { Form, href } from 'react-router'
import { WhatsAppOptInField } from './whatsapp-opt-in'
import { AuthCard, CheckboxGroupField, FieldError, FormAlert, HoneypotField, PendingButton, radioProps, TextField, useLazyValidatedForm, type FieldConstraints } from './form-controls'
import { useHydrated } from '~/web/use-hydrated'
import { formatWholeRupees, type Discount } from '~/lib/money'
import { siblingDiscountText, siblingPriceText, swimmerPrices } from '~/modules/camps/sibling-price'
import { CampPromoAndPrice, useCampQuote } from './camp-live-quote'

/** A camp as the registration forms offer it. */
export type CampChoice = {
  code: string
  label: string
  open: boolean
  price: string
  pricePaise: number
  /** The sibling price: what a family's second and each further swimmer saves; none when they pay the fee. */
  sibling: Discount | null
  earlyBirdUntil: string | null
  batches: Array<{ code: string; label: string; seatsLeft: number }>
}

/**
 * The signed-in parent: their contact details from the account, their swimmers to choose from, and
 * the camps in which a swimmer of theirs is paid for already (there every swimmer pays the sibling price).
 */
export type FamilyAccount = { email: string; phone: string; swimmers: Array<{ id: string; name: string; label: string }>; campsWithPaidSwimmer: string[] }

/** The intent of the signed-in form's button: the anonymous form's intents stay as they are. */
export const FAMILY_INTENT = 'register_swimmers'

/** Under the camp forms' promo code field: when it counts, and where its discount shows. */
export const PROMO_CODE_HINT = 'Taken off once your seats are held: the next page shows the price with it, before you pay.'

/**
 * The camp registration form of a signed-in parent: one or more of the account's swimmers, ticked,
 * registered together for one batch and paid for in one payment. The confirmation goes to the
 * account's e-mail address; the WhatsApp number is the account's unless changed here.
 */
export function FamilyRegistrationForm({
  camps,
  account,
  lastResult,
  whatsappOptIn,
  constraint,
}: {
  camps: CampChoice[]
  account: FamilyAccount
  lastResult: SubmissionResult<string[]> | undefined
  /** The opt-in box's words, or null while the site sends no WhatsApp messages (no box). */
  whatsappOptIn: string | null
  /** The attributes of the form's fields, from CampFamilySchema on the server: the schema itself loads after the page shows. */
  constraint: FieldConstraints
}) {
  const firstOpen = camps.find((camp) => camp.open)
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/camps/family-schemas').then((schemas) => schemas.CampFamilySchema), {
    id: 'camp-family',
    constraint,
    lastResult,
    defaultValue: { phone_number: account.phone, camp: firstOpen?.code },
  })
  const chosenCamp = camps.find((camp) => camp.code === fields.camp.value) ?? firstOpen
  const ticked = fields.swimmers.value
  const chosenIds = new Set<string | undefined>(Array.isArray(ticked) ? ticked : [ticked])
  // In the order the account lists them, as their seats are held: the first pays the fee.
  const chosen = account.swimmers.filter((swimmer) => chosenIds.has(swimmer.id))
  const camp = chosenCamp ?? firstOpen
  const quote = useCampQuote({ camp: camp?.code, batch: fields.batch.value, swimmers: chosen.map((swimmer) => swimmer.id) }, fields.promoCode.value)

  return (
    <AuthCard title="Camp Registration Form" lead={<p>Choose the swimmers to register for a swimming camp, and pay for them together.</p>} wide>
      {!firstOpen ? (
        <p className="rounded-lg bg-slate-100 p-4 text-ink">Registration is closed for every camp at the moment. Please check back soon.</p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="space-y-6">
          <FormAlert id={form.errorId} errors={form.errors} />
          <HoneypotField />
          <CheckboxGroupField field={fields.swimmers as FieldMetadata<string[] | undefined, Record<string, unknown>, string[]>} legend="Swimmers" options={account.swimmers.map((swimmer) => ({ value: swimmer.id, label: swimmer.label }))} />
          <div>
            <p className="text-sm font-semibold text-ink">Email Address</p>
            <p className="mt-1 text-ink" data-testid="account-email">
              {account.email}
            </p>
            <p className="mt-1 text-sm text-muted">Your account's address: the confirmation and receipt go here.</p>
          </div>
          <TextField field={fields.phone_number} label="WhatsApp Number" type="tel" inputMode="tel" autoComplete="tel" />
          {whatsappOptIn && <WhatsAppOptInField field={fields.whatsappOptIn} wording={whatsappOptIn} />}
          <CampAndBatchFields camps={camps} campField={fields.camp} batchField={fields.batch} />
          <CampPromoAndPrice field={fields.promoCode} hint={PROMO_CODE_HINT} quote={quote}>
            {camp && <SiblingPriceRule camp={camp} paidAlready={account.campsWithPaidSwimmer.includes(camp.code)} />}
          </CampPromoAndPrice>
          <PendingButton name="intent" value={FAMILY_INTENT} when={{ action: href('/onboarding'), untilLoaded: true }} pendingLabel="Registering..." className="btn-primary w-full">
            {/* The total is the server's to say (live with JavaScript, else on the summary); without a sibling price, the fee per swimmer. */}
            {quote.total ? `Register and Pay - ${quote.total}` : fields.promoCode.value || camp?.sibling ? 'Register and Pay' : `Register and Pay - ${(chosenCamp ?? firstOpen).price} per swimmer`}
          </PendingButton>
          <p className="text-sm text-muted">Next you see what you will pay, then pay once for every swimmer chosen on our payment partner's secure page. We hold their seats for a few minutes meanwhile.</p>
        </Form>
      )}
    </AuthCard>
  )
}

/**
 * The chosen camp's sibling price: its rule, or, when a swimmer of the family is paid for there
 * already, that every swimmer now pays it. What the ticked swimmers cost is the server's quote.
 */
function SiblingPriceRule({ camp, paidAlready }: { camp: CampChoice; paidAlready: boolean }) {
  const sibling = camp.sibling
  if (!sibling) return null
  return (
    <p data-testid="family-prices">
      {paidAlready
        ? `A swimmer of your family is already registered for this camp, so every swimmer you register now pays the sibling price: ${formatWholeRupees(swimmerPrices(camp.pricePaise, sibling, 1, true)[0]!.amountPaise)} (${siblingDiscountText(sibling)}).`
        : `The first swimmer of your family pays ${camp.price}. ${siblingPriceText(camp.pricePaise, sibling)}.`}
    </p>
  )
}

type Field = FieldMetadata<string | undefined, Record<string, unknown>, string[]>

/**
 * The camp, then its batch, with seats left. Without JavaScript the page cannot follow the chosen
 * camp: it lists the batches of every open camp (by code; the server explains a batch the chosen
 * camp does not have). With it, only the chosen camp's batches.
 */
export function CampAndBatchFields({ camps, campField, batchField }: { camps: CampChoice[]; campField: Field; batchField: Field }) {
  const hydrated = useHydrated()
  const firstOpen = camps.find((camp) => camp.open)
  const chosenCamp = camps.find((camp) => camp.code === campField.value) ?? firstOpen
  const batchCodes = hydrated && chosenCamp ? chosenCamp.batches.map((batch) => batch.code) : [...new Set(camps.filter((camp) => camp.open).flatMap((camp) => camp.batches.map((batch) => batch.code)))]
  const batchLabel = (code: string) => (chosenCamp?.batches.find((batch) => batch.code === code) ?? camps.flatMap((camp) => camp.batches).find((batch) => batch.code === code))!.label
  return (
    <>
      <fieldset aria-describedby={campField.errors?.length ? campField.errorId : undefined}>
        <legend className="text-sm font-semibold text-ink">Select Camp</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {radioProps(
            campField,
            camps.map((camp) => camp.code),
          ).map(({ key, ...props }) => {
            const camp = camps.find((candidate) => candidate.code === props.value)!
            return (
              <label key={key} className={`flex min-h-12 items-center gap-3 rounded-lg border-2 px-3 py-2 ${camp.open ? 'border-slate-300 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50' : 'border-slate-200 bg-slate-50 text-slate-600'}`}>
                <input {...props} disabled={!camp.open} className="h-5 w-5 shrink-0 accent-brand-700" />
                <span>
                  <span className="block font-semibold">{camp.label}</span>
                  <span className="block text-sm text-muted">{camp.open ? (camp.earlyBirdUntil ? `${camp.price}, early-bird price until ${camp.earlyBirdUntil}` : camp.price) : 'Registration closed'}</span>
                  {camp.open && camp.sibling && <span className="block text-sm text-muted">{siblingPriceText(camp.pricePaise, camp.sibling)}</span>}
                </span>
              </label>
            )
          })}
        </div>
        <FieldError field={campField} />
      </fieldset>

      <fieldset aria-describedby={batchField.errors?.length ? batchField.errorId : undefined}>
        <legend className="text-sm font-semibold text-ink">Select Batch</legend>
        <div className="mt-2 grid gap-2">
          {radioProps(batchField, batchCodes).map(({ key, ...props }) => (
            <label key={key} className="flex min-h-12 items-center gap-3 rounded-lg border-2 border-slate-300 px-3 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
              <input {...props} className="h-5 w-5 shrink-0 accent-brand-700" />
              <span>
                <span className="block font-semibold">{batchLabel(props.value)}</span>
                <SeatsLeft camps={camps} batchCode={props.value} chosenCamp={hydrated ? chosenCamp?.code : undefined} />
              </span>
            </label>
          ))}
        </div>
        <FieldError field={batchField} />
      </fieldset>
    </>
  )
}

/**
 * Seats left in a batch. Before JavaScript runs (or without it) the page cannot know which camp is
 * chosen, so it names each camp; afterwards it follows the chosen camp.
 */
function SeatsLeft({ camps, batchCode, chosenCamp }: { camps: CampChoice[]; batchCode: string; chosenCamp: string | undefined }) {
  const seats = (seatsLeft: number) => (seatsLeft === 0 ? 'Full' : `${seatsLeft} ${seatsLeft === 1 ? 'seat' : 'seats'} left`)
  const shown = camps.flatMap((camp) => {
    const batch = camp.open && (!chosenCamp || camp.code === chosenCamp) ? camp.batches.find((candidate) => candidate.code === batchCode) : undefined
    return batch ? [{ camp: camp.label.split(':')[0], left: seats(batch.seatsLeft) }] : []
  })
  const nameCamps = !chosenCamp && camps.filter((camp) => camp.open).length > 1
  return <span className="block text-sm text-muted">{shown.map(({ camp, left }) => (nameCamps ? `${camp}: ${left}` : left)).join(' · ')}</span>
}
