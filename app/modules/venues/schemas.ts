// The staff's forms for venues and who works where: their rules and messages, used by the server
// actions and, in the browser, as staff type. Nothing server-only may be imported here.
import { z } from 'zod'
import { GST_STATE_CODES } from '~/lib/gst-states'
import { gstinProblem, invoiceSeriesProblem } from '~/lib/gstin'
import { INVALID_PHONE_NUMBER, phoneField } from '~/lib/phone-field'
import { isHttpsLink, optionalText, requiredText } from '~/lib/text-fields'
import { dateField, emailField } from '~/modules/forms/fields'

export const VENUE_NAME_MAX = 120

/** The longest travel from the lab to a venue, each way: two days. */
export const TRAVEL_MINUTES_MAX = 2880

/** A whole number typed into a text box, checked against its range. */
export const wholeNumber = (missing: string, [min, tooSmall]: [number, string], [max, tooLarge]: [number, string]) =>
  z
    .string({ error: missing })
    .trim()
    .regex(/^\d{1,6}$/, missing)
    .transform(Number)
    .pipe(z.number().min(min, tooSmall).max(max, tooLarge))

/** A field that may be left empty (the form sends nothing for it then), kept as null when it is. */
const optional = <T extends z.ZodType>(field: T) => field.optional().transform((value) => value ?? null)

const PHOTO_MESSAGE = 'Choose a photo of the venue from the list, or none'

export const VenueSchema = z.object({
  name: requiredText('Enter the venue’s name', VENUE_NAME_MAX),
  address: requiredText('Enter the venue’s address', 500),
  city: requiredText('Enter the city', 80),
  stateCode: z.enum(GST_STATE_CODES, { message: 'Choose the state' }),
  mapUrl: optionalText(500)
    .refine((value) => value === '' || isHttpsLink(value), 'Enter the map link in full, starting with https://, or leave it empty')
    .transform((value) => value || null),
  photoId: optional(z.string().regex(/^[1-9]\d{0,8}$/, PHOTO_MESSAGE)).transform((value) => (value === null ? null : Number(value))),
  hostName: optionalText(120).transform((value) => value || null),
  hostEmail: optional(emailField),
  hostPhone: optional(phoneField({ tooShort: 'Enter the host’s mobile number: at least 10 digits', invalid: INVALID_PHONE_NUMBER })),
  travelMinutes: wholeNumber('Enter the travel time from the lab in whole minutes (0 for the lab itself)', [0, 'The travel time cannot be negative'], [TRAVEL_MINUTES_MAX, 'Enter a travel time of at most 2 days (2,880 minutes)']),
  gstin: upperCaseCode(20),
  invoiceSeries: upperCaseCode(10),
}).superRefine(checkRegistration)
type VenueFormOutput = z.output<typeof VenueSchema>
/** A venue's details; without a GSTIN and series, the lab invoices what is performed there under its own. */
export type VenueInput = Omit<VenueFormOutput, 'gstin' | 'invoiceSeries'> & Partial<Pick<VenueFormOutput, 'gstin' | 'invoiceSeries'>>

/** A code typed in any case and with spaces around it (a GSTIN, a series), kept in capitals; null when empty. */
function upperCaseCode(max: number) {
  return optionalText(max)
    .transform((value) => value.replace(/\s+/g, '').toUpperCase() || null)
}

/**
 * The lab's own GST registration in the venue's state: a GSTIN of that state with its check
 * character right, and the invoice series it numbers in; both or neither.
 */
export function registrationProblems(venue: { stateCode: string; gstin?: string | null; invoiceSeries?: string | null }): Array<{ field: 'gstin' | 'invoiceSeries'; message: string }> {
  const problems: Array<{ field: 'gstin' | 'invoiceSeries'; message: string }> = []
  const { gstin, invoiceSeries } = venue
  const gstinWrong = gstin ? gstinProblem(gstin, venue.stateCode) : null
  if (gstinWrong) problems.push({ field: 'gstin', message: gstinWrong })
  if (gstin && !invoiceSeries) problems.push({ field: 'invoiceSeries', message: 'Enter the invoice series this GSTIN numbers its invoices in, for example PUN' })
  if (!gstin && invoiceSeries) problems.push({ field: 'gstin', message: 'Enter the GSTIN this invoice series is for, or leave the series empty' })
  const seriesWrong = invoiceSeries ? invoiceSeriesProblem(invoiceSeries) : null
  if (seriesWrong) problems.push({ field: 'invoiceSeries', message: seriesWrong })
  return problems
}

function checkRegistration(venue: Pick<VenueFormOutput, 'stateCode' | 'gstin' | 'invoiceSeries'>, context: z.RefinementCtx) {
  for (const { field, message } of registrationProblems(venue)) context.addIssue({ code: 'custom', path: [field], message })
}

/** A time of day typed as HH:MM (24-hour). */
export const clock = (label: string) => z.string({ error: `Enter the ${label} as HH:MM` }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, `Enter the ${label} as HH:MM`)

/** From a date and time to a date and time, in the lab's time: when a kit or a person is at a venue. */
export const periodShape = {
  fromDate: dateField('Enter the first date'),
  fromTime: clock('starting time'),
  toDate: dateField('Enter the last date'),
  toTime: clock('finishing time'),
}

/** The period must end after it starts, and last at most 31 days (a placement longer than that is a move). */
export function checkPeriod(values: { fromDate: string; fromTime: string; toDate: string; toTime: string }, context: z.RefinementCtx) {
  const from = `${values.fromDate}T${values.fromTime}`
  const to = `${values.toDate}T${values.toTime}`
  if (to <= from) context.addIssue({ code: 'custom', path: ['toTime'], message: 'The end must come after the start' })
  else if (Date.parse(`${values.toDate}T00:00Z`) - Date.parse(`${values.fromDate}T00:00Z`) > 31 * 86_400_000) context.addIssue({ code: 'custom', path: ['toDate'], message: 'Choose at most 31 days at a time' })
}

/** A row chosen from a list, by its id. */
export const id = (message: string) => z.string({ error: message }).trim().regex(/^[1-9]\d{0,8}$/, message).transform(Number)

export const StaffAssignmentSchema = z
  .object({
    userId: id('Choose who'),
    ...periodShape,
    note: optionalText(300).transform((value) => value || null),
  })
  .superRefine(checkPeriod)
export type StaffAssignmentInput = z.output<typeof StaffAssignmentSchema>

export const KitSchema = z.object({
  name: requiredText('Enter the kit’s name', 80),
  setupMinutes: wholeNumber('Enter the set-up time in whole minutes', [0, 'The set-up time cannot be negative'], [720, 'Enter a set-up time of at most 12 hours (720 minutes)']),
})
export type KitInput = z.output<typeof KitSchema>

export const KitPlacementSchema = z
  .object({
    kitId: id('Choose the kit'),
    venueId: id('Choose the venue'),
    ...periodShape,
    note: optionalText(300).transform((value) => value || null),
  })
  .superRefine(checkPeriod)
export type KitPlacementInput = z.output<typeof KitPlacementSchema>
