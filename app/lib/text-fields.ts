import { z } from 'zod'

// Text fields of the staff's forms, with the same messages everywhere.

/** A text that must be given (after trimming), at most `max` characters. */
export const requiredText = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `Please use at most ${max} characters`)

/** A text that may be left out (then ""), at most `max` characters. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Please use at most ${max} characters`)
    .optional()
    .transform((value) => value ?? '')

/** A link to another site: https only (a visitor is sent there from the lab's pages), with a host name and no credentials. */
export function isHttpsLink(value: string) {
  try {
    const url = new URL(value)
    return url.protocol === 'https:' && url.hostname.includes('.') && !url.username && !url.password
  } catch {
    return false
  }
}
