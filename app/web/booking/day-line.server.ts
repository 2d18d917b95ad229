import { parseWithZod } from '@conform-to/zod/v4'
import { BOOKING_STATUS_LINK, privateLinkUrl } from '~/lib/private-links.server'
import type { DayLinePlace } from '~/modules/booking/analysis-day-line.server'
import { AnalysisDayBookingSchema, type AnalysisDayBookingInput } from '~/modules/booking/analysis-day-schemas'
import { NotYetReleasedError, type PublicAnalysisDay } from '~/modules/booking/analysis-days.server'
import { MISSING_INFORMATION } from '~/modules/booking/fields'
import { SlotUnavailableError } from '~/modules/booking/holds.server'
import { checkout } from '~/modules/payments/checkout.server'
import { typedPromoCode } from '~/modules/promotions/promo-field'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { formIntent, unknownForm } from '~/web/intent'

/** A slot the form names that the day does not have (a hand-made request, or a day changed since). */
const NOT_ON_THE_DAY = 'Please choose one of the time slots listed.'
/** The fields whose absence the form's alert sums up. */
const REQUIRED_FIELDS = ['name', 'email', 'slot'] as const

type FieldErrors = { formErrors?: string[]; fieldErrors?: Record<string, string[]> }

/**
 * The booking form sent from an analysis day's page (`host`: through the host's link), read and
 * checked against the day as this instance keeps it: the details to put in the day's line with the
 * promo code typed, or the refusal to show next to its fields (with the submission, to send the form
 * back as it came). A form no page sends (a bot's, another intent) is refused as such.
 */
export async function readDayBooking(request: Request, day: PublicAnalysisDay, { host, intent }: { host: boolean; intent: string }) {
  const formData = await readForm(request)
  rejectBots(formData)
  if (formIntent(formData, [intent]) === undefined) unknownForm()
  const promoCode = typedPromoCode(formData)?.slice(0, 64) ?? null
  const submission = parseWithZod(formData, { schema: AnalysisDayBookingSchema })
  const refused = (status: number, errors: FieldErrors) => ({ submission, promoCode, details: null, refusal: { status, errors } })
  if (submission.status !== 'success') {
    const missing = REQUIRED_FIELDS.some((field) => !String(formData.get(field) ?? '').trim())
    return refused(400, { formErrors: missing ? [MISSING_INFORMATION] : [] })
  }
  // Sent before the release (the form is shown so that families are ready): said next to the slot, the form kept.
  if (day.opensLater && !host) return refused(409, { fieldErrors: { slot: [new NotYetReleasedError(day.releaseAt).message] } })
  const [date, start] = submission.value.slot.split('|')
  const slot = day.dates.find((candidate) => candidate.date === date)?.slots.find((candidate) => candidate.start === start)
  if (!slot) return refused(400, { fieldErrors: { slot: [NOT_ON_THE_DAY] } })
  if (slot.state === 'not_available') return refused(409, { fieldErrors: { slot: [new SlotUnavailableError().message] } })
  return { submission, promoCode, details: submission.value as AnalysisDayBookingInput, refusal: null }
}

/**
 * Pays for the seat a place in the line of analysis day bookings holds: the one checkout, with the
 * WhatsApp box and the promo code of the form the place was made from. A code that no longer
 * applies gives the seat up: nothing stays held at a price the family did not agree to.
 * `network` is who asks now, whose attempts at codes are counted.
 */
export function payForPlace(place: DayLinePlace & { bookingId: number }, { network, description }: { network: string; description: string }) {
  const { details } = place
  return checkout({
    payable: { kind: 'booking', id: place.bookingId },
    // The booking is made: the number the visitor asked WhatsApp messages for is asked to confirm (its owner may be someone else).
    whatsapp: { phone: details.phone, ticked: details.whatsappOptIn, source: 'booking' },
    promo: place.promoCode ? { code: place.promoCode, network, givesUpWhen: 'anything' } : undefined,
    pay: { description, statusUrl: (orderId) => privateLinkUrl(BOOKING_STATUS_LINK, orderId) },
  })
}
