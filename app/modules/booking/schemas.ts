import { z } from 'zod'
import { INVALID_PHONE_NUMBER, phoneField, WHATSAPP_NUMBER_NEEDED, whatsappOptInField } from '~/lib/phone-field'
import { calendarDate, dateField, FIRST_DATE, LAST_DATE, notesField, once, personNameField } from '~/modules/forms/fields'
import { ADULT_AGE } from '~/modules/swimmers/age'
import { GUARDIAN_DECLARATION_MESSAGE } from '~/modules/swimmers/schemas'
import { BOOKABLE_DATE_MESSAGE, BOOKING_TIMES, isInBookingWindow, SOMEONE_ELSE } from './fields'

export { BOOKABLE_DATE_MESSAGE, BOOKING_TIMES, SINGLE_SERVICES } from './fields'

const clockTime = /^([01]\d|2[0-3]):[0-5]\d$/

export const DateSchema = dateField()

/** A date a customer may book or move to: from today (in Bangalore) up to a year ahead. */
const bookableDateField = (message?: string) =>
  calendarDate(message).refine(isInBookingWindow, BOOKABLE_DATE_MESSAGE)

export const BookableDateSchema = bookableDateField()

/** Choosing a time slot to hold on /book-slot. */
export const HoldSlotSchema = z.object({
  date: BookableDateSchema,
  time: z.string({ message: 'Please select a time slot to continue.' }).regex(clockTime, 'Please select a time slot to continue.'),
})

/** A month (yyyy-mm) within the dates forms and addresses may name. */
export function isMonth(value: string | null): value is string {
  return value !== null && /^\d{4}-(0[1-9]|1[0-2])$/.test(value) && value >= FIRST_DATE.slice(0, 7) && value <= LAST_DATE.slice(0, 7)
}

export function isClockTime(value: string | null): value is string {
  return value !== null && clockTime.test(value)
}

export const SWIMMER_NAME_MESSAGE = "Swimmer's name must be at least 2 characters"
export const SWIMMER_AGE_MESSAGE = "Please enter the swimmer's age in years"

/** Whether the swimmer the booking form names as someone else is under 18 (false while the age is not known). */
export const namesMinor = (form: { whoSwims?: string; swimmerAge?: string }) => form.whoSwims === SOMEONE_ELSE && form.swimmerAge !== undefined && Number(form.swimmerAge) < ADULT_AGE

/** Who books and who swims: what every public booking form asks, whatever it books. */
const bookingDetailsShape = {
  name: personNameField({ required: 'Please enter your full name', tooShort: 'Name must be at least 2 characters' }),
  email: z
    .string({ error: 'Please enter your email address' })
    .trim()
    .max(254, 'Invalid email address')
    .pipe(z.email({ error: 'Invalid email address' })),
  phone: phoneField({ tooShort: 'Phone number must be at least 10 digits', invalid: INVALID_PHONE_NUMBER }).optional(),
  /** Shown only when the site sends WhatsApp messages; ignored otherwise. Kept with the draft until the booking is made. */
  whatsappOptIn: whatsappOptInField.optional(),
  notes: notesField,
  /**
   * Who swims: 'myself' (a guest; the default), one of a signed-in account's swimmers by id, or
   * someone else, named with their age; the domain decides which the visitor may choose.
   */
  whoSwims: z
    .string({ error: 'Please choose who will swim' })
    .regex(/^(myself|someone_else|[1-9]\d{0,8})$/, 'Please choose who will swim')
    .optional(),
  swimmerName: personNameField({ required: SWIMMER_NAME_MESSAGE }).optional(),
  swimmerAge: z
    .string({ error: SWIMMER_AGE_MESSAGE })
    .trim()
    .regex(/^\d{1,3}$/, SWIMMER_AGE_MESSAGE)
    .refine((age) => Number(age) >= 1 && Number(age) <= 120, SWIMMER_AGE_MESSAGE)
    .optional(),
  /** The booking person's declaration as the parent or guardian of someone else under 18: never ticked for them, so only 'on' (a ticked box) counts. */
  guardianDeclaration: z
    .string()
    .transform((value) => (value === 'on' ? value : undefined))
    .optional(),
}

/** What the rules between the details read. */
type BookingDetails = { phone?: string; whatsappOptIn?: unknown; whoSwims?: string; swimmerName?: string; swimmerAge?: string; guardianDeclaration?: string }

/** The rules between the details' fields: a WhatsApp number when asked for, and who swims named in full. */
function withDetailsRules<Schema extends z.ZodType>(schema: Schema): Schema {
  // A refinement keeps the schema's type: only the fields it reads are named here.
  return (schema as unknown as z.ZodType<BookingDetails>)
    .refine((form) => !form.whatsappOptIn || Boolean(form.phone), {
    message: WHATSAPP_NUMBER_NEEDED,
    path: ['phone'],
    // Once the number and the box are valid themselves, so that every other message shows with it.
    when: (payload) => payload.issues.every((issue) => issue.path?.length && !['phone', 'whatsappOptIn'].includes(String(issue.path[0]))),
  })
    .refine((form) => form.whoSwims !== SOMEONE_ELSE || Boolean(form.swimmerName), { message: SWIMMER_NAME_MESSAGE, path: ['swimmerName'], ...once('whoSwims', 'swimmerName') })
    .refine((form) => form.whoSwims !== SOMEONE_ELSE || form.swimmerAge !== undefined, { message: SWIMMER_AGE_MESSAGE, path: ['swimmerAge'], ...once('whoSwims', 'swimmerAge') })
    .refine((form) => !namesMinor(form) || Boolean(form.guardianDeclaration), { message: GUARDIAN_DECLARATION_MESSAGE, path: ['guardianDeclaration'], ...once('whoSwims', 'swimmerAge', 'guardianDeclaration') }) as unknown as Schema
}

/** The details of a booking with what it books (each form's own fields), and the rules between them. */
export const bookingFormSchema = <Shape extends z.ZodRawShape>(shape: Shape) => withDetailsRules(z.object({ ...bookingDetailsShape, ...shape }))

export const PublicBookingSchema = bookingFormSchema({
  service: z.enum(['race', 'biomechanical', 'both'], { error: 'Please choose a service' }),
  date: bookableDateField('Please choose a date'),
  time: z.enum(BOOKING_TIMES, { error: 'Please choose a time' }),
})
export type PublicBookingInput = z.output<typeof PublicBookingSchema>
