// Staff forms for opening hours and bookings: their rules and messages, used by the server actions
// and, in the browser, for validation as you type. Nothing server-only may be imported here.
import { z } from 'zod'
import { rupeesToPaise } from '~/lib/money'
import { INVALID_PHONE_NUMBER, phoneField } from '~/lib/phone-field'
import { DAYS_OF_WEEK, daysBetween } from '~/lib/lab-time'
import { dateField, notesField, personNameField } from '~/modules/forms/fields'
import { DateSchema } from './schemas'

const clock = (label: string) => z.string({ error: `Enter the ${label} as HH:MM` }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, `Enter the ${label} as HH:MM`)
const minutes = (value: string) => Number(value.slice(0, 2)) * 60 + Number(value.slice(3, 5))

/** A whole number typed into a text box, checked against its range. */
const wholeNumber = (missing: string, [min, tooSmall]: [number, string], [max, tooLarge]: [number, string]) =>
  z
    .string({ error: missing })
    .trim()
    .regex(/^\d+$/, missing)
    .transform(Number)
    .pipe(z.number().min(min, tooSmall).max(max, tooLarge))

const hoursShape = {
  startTime: clock('opening time'),
  endTime: clock('closing time'),
  slotDurationMinutes: wholeNumber('Enter the slot length in whole minutes', [15, 'A slot lasts at least 15 minutes'], [480, 'A slot lasts at most 8 hours']),
  capacity: wholeNumber('Enter how many people a slot takes', [1, 'A slot takes at least 1 person'], [50, 'A slot takes at most 50 people']),
}

function checkHours(values: { startTime: string; endTime: string; slotDurationMinutes: number }, context: z.RefinementCtx) {
  if (minutes(values.endTime) <= minutes(values.startTime)) context.addIssue({ code: 'custom', path: ['endTime'], message: 'The closing time must be after the opening time' })
  else if (values.slotDurationMinutes > minutes(values.endTime) - minutes(values.startTime)) context.addIssue({ code: 'custom', path: ['slotDurationMinutes'], message: 'A slot must fit between the opening and closing times' })
}

export const WindowHoursSchema = z.object(hoursShape).superRefine(checkHours)

const dateRange = {
  from: dateField('Choose the first date'),
  to: z.string().optional(),
  /** ISO weekdays as the checkboxes send them: '1' (Monday) to '7' (Sunday). */
  weekdays: z.array(z.string().regex(/^[1-7]$/), { error: 'Choose at least one weekday' }).min(1, 'Choose at least one weekday'),
}

function checkRange(values: { from: string; to?: string }, context: z.RefinementCtx) {
  if (!values.to) return
  if (!DateSchema.safeParse(values.to).success) return context.addIssue({ code: 'custom', path: ['to'], message: 'Choose the last date' })
  if (values.to < values.from) return context.addIssue({ code: 'custom', path: ['to'], message: 'The last date must be on or after the first' })
  if (daysBetween(values.from, values.to) > 366) context.addIssue({ code: 'custom', path: ['to'], message: 'Choose at most a year at a time' })
}

export const CreateWindowsSchema = z
  .object({ ...dateRange, ...hoursShape })
  .superRefine((values, context) => {
    checkRange(values, context)
    checkHours(values, context)
  })

export const HolidaysSchema = z.object(dateRange).superRefine(checkRange)

/** The weekday checkboxes, valued as ISO weekdays ('1' = Monday … '7' = Sunday). */
export const WEEKDAYS = DAYS_OF_WEEK.map((day) => ({ value: String(day.number), label: day.short }))

/** What staff can book for someone (catalogue codes): the 3-day session or a single session. */
export const STAFF_PRODUCTS = [
  { value: 'biomechanical_package', days: 3 },
  { value: 'single_race', days: 1 },
  { value: 'single_biomechanical', days: 1 },
  { value: 'single_both', days: 1 },
] as const

export const PAYMENT_METHODS = ['Cash', 'UPI', 'Card', 'Bank transfer'] as const

export const StaffBookingSchema = z
  .object({
    name: personNameField(),
    swimmerName: personNameField({ required: "Swimmer's name must be at least 2 characters" }).optional().or(z.literal('').transform(() => undefined)),
    email: z.string({ error: 'Invalid email address' }).trim().max(254, 'Invalid email address').pipe(z.email({ error: 'Invalid email address' })),
    phone: phoneField({ tooShort: 'Phone number must be at least 10 digits', invalid: INVALID_PHONE_NUMBER }).optional(),
    product: z.enum(STAFF_PRODUCTS.map((product) => product.value) as [string, ...string[]], { error: 'Choose what to book' }),
    date: dateField('Choose the date of the (first) session'),
    time: clock('start time'),
    origin: z.enum(['offline', 'complimentary'], { error: 'Choose how it is paid' }),
    amount: z.string().trim().optional(),
    paymentMethod: z.enum(PAYMENT_METHODS).optional(),
    notes: notesField,
  })
  .superRefine(
    (values, context) => {
      if (values.origin !== 'offline') return
      if (!values.amount || rupeesToPaise(values.amount) === null) context.addIssue({ code: 'custom', path: ['amount'], message: 'Enter the amount paid in rupees, for example 30,000' })
      if (!values.paymentMethod) context.addIssue({ code: 'custom', path: ['paymentMethod'], message: 'Choose how it was paid' })
    },
    // Payment details are checked even when other fields are wrong, so every message shows at once.
    { when: ({ value }) => typeof value === 'object' && value !== null && (value as { origin?: unknown }).origin === 'offline' },
  )

/** The day sheet's buttons: the swimmer checked in, a no-show, or the mark taken off ('none'). */
export const SheetAttendanceSchema = z.object({
  attendance: z.enum(['attended', 'no_show', 'none'], { error: 'Choose checked in, no-show or not yet' }).transform((value) => (value === 'none' ? null : value)),
})
