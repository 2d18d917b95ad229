// What a date typed into a form must look like; no zod here, so a page can check a date before the
// forms' rules load.

/** yyyy-mm-dd, with a month and a day in range. */
export const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/

/** Whether a yyyy-mm-dd names a day that exists (not 2025-02-30). */
export function isRealDate(value: string) {
  const time = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(time.getTime()) && time.toISOString().startsWith(value)
}
