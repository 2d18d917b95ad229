import { Form } from 'react-router'
import { PROMO_FIELD } from '~/modules/promotions/promo-field'
import { HoneypotField, PendingButton } from './form-controls'

/** The promo code's form field: its name (and how it is read), and the intents that apply and remove a code. */
export { PROMO_FIELD, typedPromoCode } from '~/modules/promotions/promo-field'
export const APPLY_PROMO = 'apply-promo'
export const REMOVE_PROMO = 'remove-promo'
/** Apply pressed with the field empty. */
export const ENTER_PROMO_CODE = 'Please enter a promo code.'


type Applied = { code: string; discount: string }

/**
 * The promo code on a payment step: the field with Apply, its refusal next to it; once applied, the
 * code with what it takes off and Remove. A form of its own, posting to the page it is on, so it
 * works without JavaScript.
 */
export function PromoCodeForm({ applied, error, typed }: { applied: Applied | null; error: string | null; typed?: string | null }) {
  if (applied) {
    return (
      <Form method="post" className="mt-4 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm">
        <HoneypotField />
        <p className="text-ink">
          Promo code <span className="font-bold">{applied.code}</span> applied: {applied.discount} off.
        </p>
        <PendingButton name="intent" value={REMOVE_PROMO} when={{ fields: { intent: REMOVE_PROMO } }} pendingLabel="Removing..." className="btn-secondary">
          Remove code
        </PendingButton>
      </Form>
    )
  }
  return (
    <Form method="post" className="mt-4">
      <HoneypotField />
      <PromoCodeInput error={error} typed={typed ?? null} />
      <PendingButton name="intent" value={APPLY_PROMO} when={{ fields: { intent: APPLY_PROMO } }} pendingLabel="Applying..." className="btn-secondary mt-2">
        Apply code
      </PendingButton>
    </Form>
  )
}

/** The promo code's field alone, for a form that sends it with everything else (the camp form). */
export function PromoCodeInput({ error, typed }: { error: string | null; typed: string | null }) {
  return (
    <div>
      <label htmlFor="promo-code" className="block text-sm font-semibold text-ink">
        Promo code <span className="font-normal text-muted">(optional)</span>
      </label>
      <input
        id="promo-code"
        name={PROMO_FIELD}
        type="text"
        defaultValue={typed ?? ''}
        maxLength={64}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'promo-code-error' : undefined}
        className="input mt-1 uppercase"
      />
      {error && (
        <p id="promo-code-error" className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}
