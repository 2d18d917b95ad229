// The fields many forms share (a person's name, an e-mail address, notes, a WhatsApp number, a
// date, a declaration box) and their messages, used by the server actions and, in the browser, for
// validation as you type. Nothing server-only may be imported here, nor any other module.
import { z } from 'zod'
import { isPersonName, looksLikeLink } from '~/lib/person-name'
import { INVALID_WHATSAPP_NUMBER, phoneField } from '~/lib/phone-field'
import { ISO_DATE, isRealDate } from './dates'

/**
 * Control characters (NUL, tabs, line breaks), invisible separators, and the marks that make text
 * run right to left ('\u202egnp.exe' shows as 'exe.png'): nothing a person types on one line.
 * ZWJ and ZWNJ are not among them, since Indian scripts need them.
 */
const INVISIBLE_MARKS = '\\u00ad\\u061c\\u180e\\u200b\\u200e\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb'
const CONTROL_CHARACTERS = new RegExp(`[\\p{Cc}${INVISIBLE_MARKS}]`, 'u')
/** The same, except the line breaks a text area sends (CR LF), for multi-line text such as notes. */
const CONTROL_CHARACTERS_BUT_LINE_BREAKS = new RegExp(`[\\u0000-\\u0009\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f${INVISIBLE_MARKS}]`, 'u')

const hasControlCharacters = (text: string) => CONTROL_CHARACTERS.test(text)
const hasControlCharactersButLineBreaks = (text: string) => CONTROL_CHARACTERS_BUT_LINE_BREAKS.test(text)

export const NAME_MESSAGE = 'Please enter the name in letters: no digits, links or other signs.'

/**
 * A person's or a swimmer's name, on every form that takes one. Names go into e-mails and WhatsApp
 * messages sent to addresses and numbers nobody has proven yet, so a name carries no digit, link,
 * line break or sign that would let the lab's sender be used for phishing. The lab's own settings
 * may keep a name still to be supplied (`alsoAccept`, their placeholder).
 */
export const personNameField = ({
  required = 'Name must be at least 2 characters',
  tooShort = required,
  min = 2,
  max = 100,
  alsoAccept,
}: { required?: string; tooShort?: string; min?: number; max?: number; alsoAccept?: (name: string) => boolean } = {}) =>
  z
    .string({ error: required })
    .trim()
    .min(min, tooShort)
    .max(max, `Please use at most ${max} characters`)
    .refine((name) => isPersonName(name) || (alsoAccept?.(name) === true && !hasControlCharacters(name) && !looksLikeLink(name)), NAME_MESSAGE)

const SPECIAL_CHARACTERS_MESSAGE = 'Please remove special characters such as tabs or invisible marks'

/** A required text field on one line: missing and too short give the same message. */
export const text = (message: string, min = 1, max = 200) =>
  z
    .string({ error: message })
    .trim()
    .min(min, message)
    .max(max, `Please use at most ${max} characters`)
    .refine((value) => !hasControlCharacters(value), SPECIAL_CHARACTERS_MESSAGE)

export const optionalText = (max = 200) =>
  z
    .string()
    .trim()
    .max(max, `Please use at most ${max} characters`)
    .refine((value) => !hasControlCharacters(value), SPECIAL_CHARACTERS_MESSAGE)
    .optional()

/** Notes typed into a text area: line breaks are kept, other control characters refused. */
export const notesField = z
  .string()
  .trim()
  .max(1000, 'Please keep notes under 1,000 characters')
  .refine((value) => !hasControlCharactersButLineBreaks(value), SPECIAL_CHARACTERS_MESSAGE)
  .optional()

export const emailField = z
  .string({ error: 'Invalid email address' })
  .trim()
  .max(254, 'Invalid email address')
  .pipe(z.email({ error: 'Invalid email address' }))

/**
 * Runs a check across fields once those fields are valid themselves, even while others are not, so
 * that every message shows at once (a form-wide check would otherwise wait for every field). Never
 * when what was parsed is not a form at all (an issue without a field: a missing cookie, say).
 */
export const once = (...fields: string[]) => ({
  when: (payload: { issues: ReadonlyArray<{ path?: ReadonlyArray<PropertyKey> }> }) => payload.issues.every((issue) => issue.path?.length && !fields.includes(String(issue.path[0]))),
})

/** The account holder's WhatsApp number, kept in E.164: on registration and on the account's own form. */
export const whatsappNumberField = phoneField({ tooShort: 'WhatsApp number must be at least 10 digits', invalid: INVALID_WHATSAPP_NUMBER })

/** A declaration box that is never ticked for the person: only 'on' (a ticked checkbox) counts. */
export const declarationField = z
  .string()
  .optional()
  .transform((value) => value === 'on')

/**
 * The dates any form or address may name. The lab's records and plans fall well inside, and every
 * day of them is a plain yyyy-mm-dd for JavaScript and PostgreSQL alike (year 0 is not a date to
 * PostgreSQL, and the day after 9999-12-31 is no longer yyyy-mm-dd).
 */
export const FIRST_DATE = '2000-01-01'
export const LAST_DATE = '2100-12-31'
export const DATE_RANGE_MESSAGE = 'Choose a date from 2000 to 2100'

/** A calendar date (yyyy-mm-dd) that exists. */
export const calendarDate = (message?: string) =>
  z
    .string({ error: message })
    .regex(ISO_DATE, { message, abort: true })
    .refine(isRealDate, { message, abort: true })

/** A calendar date from 2000 to 2100. */
export const dateField = (message?: string) => calendarDate(message).refine((value) => value >= FIRST_DATE && value <= LAST_DATE, DATE_RANGE_MESSAGE)
