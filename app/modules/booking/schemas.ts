import { z } from 'zod'

const isoDate = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/
const clockTime = /^([01]\d|2[0-3]):[0-5]\d$/

/** A calendar date (yyyy-mm-dd) that exists. */
export const DateSchema = z
  .string()
  .regex(isoDate)
  .refine((value) => new Date(`${value}T00:00:00Z`).toISOString().startsWith(value))

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
