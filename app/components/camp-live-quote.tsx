import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { useEffect, useState } from 'react'
import { useFetcher } from 'react-router'
import { FieldError } from './form-controls'
import { QuoteTable } from './quote-table'
import { useHydrated } from '~/web/use-hydrated'
import type { CampQuoteAnswer } from '~/modules/payments/quote'
import { CAMP_QUOTE_ACTION } from './camp-quote-action'

type Field = FieldMetadata<string | undefined, Record<string, unknown>, string[]>

/** What the camp forms have chosen so far: the price is asked for once a camp and batch (and, signed in, a swimmer) are. */
export type CampOrderChoice = { camp: string | undefined; batch: string | undefined; swimmers?: string[]; name?: string; email?: string }

/**
 * With JavaScript, the price of what the parent has chosen, quoted by the server as the summary will
 * quote it (/onboarding/quote): the total for the button, once it is the price of what the form now
 * says. A promo code counts as an attempt at it, so it is sent only when the parent applies it.
 * Without JavaScript nothing is asked: the summary after the seats are held shows the price.
 */
export function useCampQuote(choice: CampOrderChoice, promoCode: string | undefined) {
  const hydrated = useHydrated()
  const fetcher = useFetcher<CampQuoteAnswer>()
  const [applied, setApplied] = useState<string | null>(null)
  const typed = (promoCode ?? '').trim()
  // A code typed but not applied yet is not priced: the button names no price until it is.
  const code = typed === '' ? '' : typed === applied ? typed : null
  const ready = hydrated && Boolean(choice.camp && choice.batch) && (!choice.swimmers || choice.swimmers.length > 0) && code !== null
  const params = new URLSearchParams({ camp: choice.camp ?? '', batch: choice.batch ?? '' })
  for (const id of choice.swimmers ?? []) params.append('swimmers', id)
  if (code) params.set('promoCode', code)
  const asked = ready ? params.toString() : null
  const [loaded, setLoaded] = useState<string | null>(null)

  useEffect(() => {
    if (!asked) return
    const query = new URLSearchParams(asked)
    // The guest's name labels their line and their e-mail address counts their uses of a code: read as they are now, not asked again as they are typed.
    if (choice.name) query.set('name', choice.name.slice(0, 100))
    if (code && choice.email) query.set('email', choice.email.slice(0, 254))
    fetcher.submit(query, { method: 'post', action: CAMP_QUOTE_ACTION })
    setLoaded(asked)
  }, [asked])

  const answer = asked && loaded === asked && fetcher.state === 'idle' ? (fetcher.data ?? null) : null
  return {
    hydrated,
    answer,
    /** The total the gateway will ask for what the form now says, once the server has said it. */
    total: answer?.total ?? null,
    waitingForApply: hydrated && code === null,
    apply: () => setApplied(typed),
  }
}

/**
 * The camp forms' promo code field with, once JavaScript runs, an Apply button, and the reason a code
 * is refused next to it; then the live price (a polite live region) of what is chosen.
 */
export function CampPromoAndPrice({ field, hint, quote, children }: { field: Field; hint: string; quote: ReturnType<typeof useCampQuote>; children?: React.ReactNode }) {
  const { key, ...props } = getInputProps(field, { type: 'text' })
  const refusedId = `${field.id}-refused`
  const refusal = quote.answer?.promoError ?? null
  const describedBy = [field.descriptionId, field.errors?.length ? field.errorId : null, refusal ? refusedId : null].filter(Boolean).join(' ')
  return (
    <>
      <div>
        <label htmlFor={field.id} className="block text-sm font-semibold text-ink">
          Promo code<span className="font-normal text-muted"> (optional)</span>
        </label>
        <div className="mt-1 flex gap-2">
          <input key={key} {...props} aria-describedby={describedBy} aria-invalid={props['aria-invalid'] || Boolean(refusal) || undefined} autoComplete="off" className="input" />
          {quote.hydrated && (
            <button type="button" onClick={quote.apply} className="btn-secondary shrink-0">
              Apply
            </button>
          )}
        </div>
        <p id={field.descriptionId} className="mt-1 text-sm text-muted">
          {quote.waitingForApply ? 'Press Apply to see the price with this code.' : hint}
        </p>
        <FieldError field={field} />
        {refusal && !field.errors?.length && (
          <p id={refusedId} className="mt-1 text-sm font-medium text-red-700">
            {refusal}
          </p>
        )}
      </div>
      <div aria-live="polite" className="space-y-2 text-ink" data-testid="live-price">
        {children}
        {quote.answer?.rows && <QuoteTable title="What you will pay" rows={quote.answer.rows} />}
        {quote.answer?.error && <p className="text-sm">{quote.answer.error}</p>}
      </div>
    </>
  )
}
