import { z } from 'zod'

const isoDate = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/
const clockTime = /^([01]\d|2[0-3]):[0-5]\d$/

/** A calendar date (yyyy-mm-dd) that exists. */
export const dateField = (message?: string) =>
  z
    .string({ error: message })
    .regex(isoDate, message)
    .refine((value) => isRealDate(value), message)

// zod runs this check even when the pattern failed, so it must cope with any text ('abc', '2026-02-32').
function isRealDate(value: string) {
  const time = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(time.getTime()) && time.toISOString().startsWith(value)
}

export const DateSchema = dateField()

/** Choosing a time slot to hold on /book-slot. */
export const HoldSlotSchema = z.object({
  date: DateSchema,
  time: z.string({ message: 'Please select a time slot to continue.' }).regex(clockTime, 'Please select a time slot to continue.'),
})

export function isMonth(value: string | null): value is string {
  return value !== null && /^\d{4}-(0[1-9]|1[0-2])$/.test(value)
}

export function isClockTime(value: string | null): value is string {
  return value !== null && clockTime.test(value)
}

/** The single sessions sold on /booking, and the catalogue item each is priced by. */
export const SINGLE_SERVICES = [
  { value: 'race', label: 'Race Analysis', productCode: 'single_race' },
  { value: 'biomechanical', label: 'Biomechanical Analysis', productCode: 'single_biomechanical' },
  { value: 'both', label: 'Race + Biomechanical Analysis', productCode: 'single_both' },
] as const

/** /booking's time choices: 9:00 AM to 5:00 PM, hourly. */
export const BOOKING_TIMES = ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00'] as const

export const MISSING_INFORMATION = 'Missing information - Please fill in all required fields.'

/** The fields a form must have for the "Missing information" message not to show. */
export const REQUIRED_BOOKING_FIELDS = ['name', 'email', 'service', 'date', 'time'] as const

export const PublicBookingSchema = z.object({
  name: z.string({ error: 'Please enter your full name' }).trim().min(2, 'Name must be at least 2 characters').max(100, 'Please use at most 100 characters'),
  email: z
    .string({ error: 'Please enter your email address' })
    .trim()
    .max(254, 'Invalid email address')
    .pipe(z.email({ error: 'Invalid email address' })),
  phone: z
    .string()
    .trim()
    .max(20, 'Please use at most 20 characters')
    .refine((phone) => phone.replace(/\D/g, '').length >= 10, 'Phone number must be at least 10 digits')
    .optional(),
  service: z.enum(['race', 'biomechanical', 'both'], { error: 'Please choose a service' }),
  date: dateField('Please choose a date'),
  time: z.enum(BOOKING_TIMES, { error: 'Please choose a time' }),
  notes: z.string().trim().max(1000, 'Please keep notes under 1,000 characters').optional(),
})
export type PublicBookingInput = z.output<typeof PublicBookingSchema>
