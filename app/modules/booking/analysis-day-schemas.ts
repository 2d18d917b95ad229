// The staff's form for an analysis day and the public form that books one of its slots: their rules
// and messages, used by the server actions and, in the browser, as people type. Nothing server-only
// may be imported here.
import { z } from 'zod'
import { rupeesToPaise } from '~/lib/money'
import { optionalText } from '~/lib/text-fields'
import { dateField } from '~/modules/forms/fields'
import { clock, id, wholeNumber } from '~/modules/venues/schemas'
import { bookingFormSchema } from './schemas'

/** The most dates one analysis day spans (a week of a competition or a camp). */
export const ANALYSIS_DAY_MAX_DATES = 7
/** The most kits filmed with at once at one venue. */
export const ANALYSIS_DAY_MAX_RIGS = 20
/** The most seats kept for the host club. */
export const HOST_SEATS_MAX = 500

/** The highest price a form accepts (₹10,00,000), well inside an integer of paise. */
const MAX_PRICE_PAISE = 10_00_000_00

const price = z
  .string({ error: 'Enter the price in rupees, such as 1,500' })
  .trim()
  .refine((text) => rupeesToPaise(text) !== null, 'Enter the price in rupees, such as 1,500')
  .transform((text) => rupeesToPaise(text)!)
  .pipe(z.number().max(MAX_PRICE_PAISE, 'The price cannot be more than ₹10,00,000'))

export const AnalysisDaySchema = z
  .object({
    venueId: id('Choose the venue'),
    productCode: z.string({ error: 'Choose what is sold' }).trim().regex(/^[a-z0-9_]{1,40}$/, 'Choose what is sold'),
    firstDate: dateField('Enter the first date'),
    lastDate: dateField('Enter the last date'),
    startTime: clock('starting time'),
    endTime: clock('finishing time'),
    slotMinutes: wholeNumber('Enter the slot length in whole minutes', [5, 'A slot lasts at least 5 minutes'], [480, 'A slot lasts at most 8 hours (480 minutes)']),
    rigs: wholeNumber('Enter how many kits film at once', [1, 'At least one kit films'], [ANALYSIS_DAY_MAX_RIGS, `At most ${ANALYSIS_DAY_MAX_RIGS} kits film at once`]),
    price,
    hostSeats: wholeNumber('Enter the host’s seats as a whole number (0 for none)', [0, 'The host’s seats cannot be negative'], [HOST_SEATS_MAX, `Keep at most ${HOST_SEATS_MAX} seats for the host`]),
    releaseDate: dateField('Enter the date booking opens to everyone'),
    releaseTime: clock('time booking opens to everyone'),
    whatToBring: optionalText(1000),
  })
  .superRefine((values, context) => {
    if (values.lastDate < values.firstDate) context.addIssue({ code: 'custom', path: ['lastDate'], message: 'The last date cannot come before the first' })
    else if (Date.parse(`${values.lastDate}T00:00Z`) - Date.parse(`${values.firstDate}T00:00Z`) > (ANALYSIS_DAY_MAX_DATES - 1) * 86_400_000)
      context.addIssue({ code: 'custom', path: ['lastDate'], message: `Choose at most ${ANALYSIS_DAY_MAX_DATES} dates in a row` })
    if (values.endTime <= values.startTime) context.addIssue({ code: 'custom', path: ['endTime'], message: 'The finishing time must come after the starting time' })
    if (`${values.releaseDate}T${values.releaseTime}` >= `${values.firstDate}T${values.startTime}`)
      context.addIssue({ code: 'custom', path: ['releaseDate'], message: 'Booking must open to everyone before the first slot begins' })
  })
export type AnalysisDayInput = z.output<typeof AnalysisDaySchema>

/** A slot of an analysis day as the booking form names it: its date and starting time. */
export const SLOT_MESSAGE = 'Please choose a time slot.'

/**
 * Booking a slot of an analysis day: the details of /booking (who books, who swims, the WhatsApp
 * box), with the slot chosen from the day's instead of a service, date and time.
 */
export const AnalysisDayBookingSchema = bookingFormSchema({
  slot: z.string({ error: SLOT_MESSAGE }).regex(/^\d{4}-\d{2}-\d{2}\|([01]\d|2[0-3]):[0-5]\d$/, SLOT_MESSAGE),
})
export type AnalysisDayBookingInput = z.output<typeof AnalysisDayBookingSchema>
