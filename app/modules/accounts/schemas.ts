// The forms' rules and the exact messages a visitor sees, used by the server actions and, in the
// browser, for validation as you type. Nothing server-only may be imported here.
import { z } from 'zod'
import { isMinorOn, type KnownAge } from '~/modules/swimmers/age'
import { isPersonName, looksLikeLink } from '~/lib/person-name'
import { INVALID_WHATSAPP_NUMBER, phoneField, whatsappOptInField } from '~/lib/phone-field'
import { GENDERS, HOW_DID_YOU_KNOW, PARTICIPATE_IN_EVENTS, SPECIALIZATIONS, SWIMMING_EXPERIENCE, WHO_SWIMS } from './fields'

export { GENDERS, HOW_DID_YOU_KNOW, optionLabel, SPECIALIZATIONS, SWIMMING_EXPERIENCE, WHO_SWIMS } from './fields'

type Options = ReadonlyArray<{ value: string; label: string }>
const values = <T extends Options>(options: T) => options.map((option) => option.value) as [T[number]['value'], ...T[number]['value'][]]

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
const text = (message: string, min = 1, max = 200) =>
  z
    .string({ error: message })
    .trim()
    .min(min, message)
    .max(max, `Please use at most ${max} characters`)
    .refine((value) => !hasControlCharacters(value), SPECIAL_CHARACTERS_MESSAGE)

const optionalText = (max = 200) =>
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

const passwordField = z
  .string({ error: 'Password must be at least 6 characters' })
  .min(6, 'Password must be at least 6 characters')
  .max(128, 'Password must be at most 128 characters')

const ageField = z
  .string({ error: 'Age is required' })
  .trim()
  .refine((age) => age === '' || (/^\d{1,3}$/.test(age) && Number(age) >= 1 && Number(age) <= 120), 'Please enter your age in years')
  .transform((age) => (age === '' ? null : Number(age)))
  .optional()

const BIRTH_DATE_MESSAGE = 'Please enter a date of birth in the past, as on a birth certificate'
const birthDateField = z
  .string()
  .trim()
  .refine((day) => day === '' || isCalendarDate(day), BIRTH_DATE_MESSAGE)
  .transform((day) => day || null)
  .optional()

function isCalendarDate(day: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false
  const parsed = new Date(`${day}T00:00:00Z`)
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day) && day >= '1900-01-01'
}

/**
 * What describes a swimmer, as the registration form asks it: the same fields and messages when a
 * swimmer is added to an account or edited. An exact date of birth may be given instead of the age.
 */
export const swimmerFields = {
  age: ageField,
  birthDate: birthDateField,
  gender: z.enum(values(GENDERS), { error: 'Please select your gender' }),
  swimmingExperience: z.enum(values(SWIMMING_EXPERIENCE), { error: 'Please select your swimming experience' }),
  academyName: text('Academy name is required (Enter NA if not applicable)', 1, 100),
  coachName: personNameField({ required: 'Coach name is required (Enter NA if not applicable)', min: 1 }),
  specialization: z.enum(values(SPECIALIZATIONS), { error: 'Please select your specialization' }),
  otherSpecialization: optionalText(100),
  participateInEvents: z.enum(values(PARTICIPATE_IN_EVENTS), { error: 'Please select if you participate in events' }),
  strokeBestTime: z
    .string()
    .trim()
    .regex(/^\d{1,2}:[0-5]\d(\.\d{1,3})?$/, 'Enter the time as mm:ss.ms, for example 01:05.32')
    .optional(),
}

/** How the family heard of the lab: asked once, on registration, and kept with the first swimmer. */
export const heardAboutFields = {
  howDidYouKnow: z.enum(values(HOW_DID_YOU_KNOW), { error: 'Please select how you got to know about us' }),
  otherSource: optionalText(100),
}

type AgeAnswer = { age?: number | null; birthDate?: string | null }

/**
 * Runs a check across fields once those fields are valid themselves, even while others are not, so
 * that every message shows at once (a form-wide check would otherwise wait for every field). Never
 * when what was parsed is not a form at all (an issue without a field: a missing cookie, say).
 */
export const once = (...fields: string[]) => ({
  when: (payload: { issues: ReadonlyArray<{ path?: ReadonlyArray<PropertyKey> }> }) => payload.issues.every((issue) => issue.path?.length && !fields.includes(String(issue.path[0]))),
})

/** The age is required unless a date of birth is given; a date of birth is not in the future. */
function withAgeRules<T extends z.ZodType<AgeAnswer>>(schema: T, today: string) {
  return schema
    .refine((form) => Boolean(form.birthDate) || (form.age !== null && form.age !== undefined), { message: 'Age is required', path: ['age'], ...once('age', 'birthDate') })
    .refine((form) => !form.birthDate || form.birthDate <= today, { message: BIRTH_DATE_MESSAGE, path: ['birthDate'], ...once('birthDate') })
}

/** Whether the swimmer the form describes is under 18 today (false while the age is not known). */
function describesMinor(form: AgeAnswer, today: string) {
  if (!form.birthDate && (form.age === null || form.age === undefined)) return false
  return isMinorOn(knownAgeOf(form, today), today)
}

/** The swimmer's age as kept: the exact date of birth, or the age given today. */
export function knownAgeOf(form: AgeAnswer, today: string): KnownAge {
  if (form.birthDate) return { birthDate: form.birthDate, ageYears: null, ageGivenOn: null }
  return { birthDate: null, ageYears: form.age ?? null, ageGivenOn: today }
}

export const GUARDIAN_DECLARATION_MESSAGE = "Please confirm that you are the swimmer's parent or guardian and agree to the Privacy Policy"
export const PARENT_EMAIL_MESSAGE = "Swimmers under 18 need a parent's or guardian's consent: enter their e-mail address"

/** A declaration box that is never ticked for the person: only 'on' (a ticked checkbox) counts. */
/** The account holder's WhatsApp number, kept in E.164: on registration and on the account's own form. */
export const whatsappNumberField = phoneField({ tooShort: 'WhatsApp number must be at least 10 digits', invalid: INVALID_WHATSAPP_NUMBER })

const declarationField = z
  .string()
  .optional()
  .transform((value) => value === 'on')


/**
 * Registration: the account holder (name, e-mail, password, WhatsApp number, location) and the first
 * swimmer, themselves or a child. A child under 18 needs the guardian's declaration in the form; a
 * swimmer under 18 registering themselves names a parent, who is asked for consent by e-mail.
 * `today` is the lab's date (labToday()), for the age rules.
 */
export const registrationSchema = (today: string) =>
  withAgeRules(
    z.object({
      whoSwims: z.enum(values(WHO_SWIMS), { error: 'Please choose who will swim' }).default('myself'),
      name: personNameField(),
      email: emailField,
      password: passwordField,
      phone: whatsappNumberField,
      whatsappOptIn: whatsappOptInField,
      currentLocation: text('Current location is required', 2, 100),
      swimmerName: personNameField({ required: "Swimmer's name must be at least 2 characters" }).optional().or(z.literal('').transform(() => undefined)),
      ...swimmerFields,
      ...heardAboutFields,
      guardianDeclaration: declarationField,
      parentEmail: emailField.optional().or(z.literal('').transform(() => undefined)),
    }),
    today,
  )
    .refine((form) => form.whoSwims !== 'child' || Boolean(form.swimmerName), { message: "Swimmer's name must be at least 2 characters", path: ['swimmerName'], ...once('whoSwims', 'swimmerName') })
    .refine((form) => form.whoSwims !== 'child' || form.guardianDeclaration || !describesMinor(form, today), {
      message: GUARDIAN_DECLARATION_MESSAGE,
      path: ['guardianDeclaration'],
      ...once('whoSwims', 'age', 'birthDate', 'guardianDeclaration'),
    })
    .refine((form) => form.whoSwims !== 'myself' || Boolean(form.parentEmail) || !describesMinor(form, today), {
      message: PARENT_EMAIL_MESSAGE,
      path: ['parentEmail'],
      ...once('whoSwims', 'age', 'birthDate', 'parentEmail'),
    })
    .refine((form) => !form.parentEmail || form.parentEmail.toLowerCase() !== form.email.toLowerCase(), {
      message: "Enter your parent's or guardian's own e-mail address, not yours",
      path: ['parentEmail'],
      ...once('email', 'parentEmail'),
    })
export type RegistrationInput = z.output<ReturnType<typeof registrationSchema>>

/** A swimmer added to an account or edited: the registration form's swimmer fields, with the swimmer's name. */
export const swimmerSchema = (today: string) =>
  withAgeRules(
    z.object({
      name: personNameField({ required: "Swimmer's name must be at least 2 characters" }),
      ...swimmerFields,
      guardianDeclaration: declarationField,
    }),
    today,
  )
export type SwimmerInput = z.output<ReturnType<typeof swimmerSchema>>

export const LoginSchema = z.object({
  email: emailField,
  password: passwordField,
  redirectTo: z.string().optional(),
})

const CODE_MESSAGE = 'Enter the 6-digit code from the e-mail'
export const codeField = z
  .string({ error: CODE_MESSAGE })
  .trim()
  .regex(/^\d{6}$/, CODE_MESSAGE)

/** A browser other than the one that registered the account chooses its password as it verifies (the server decides which). */
export const VerifyEmailSchema = z.object({ email: emailField, code: codeField, password: passwordField.optional() })

export const EmailOnlySchema = z.object({ email: emailField })

export const ResetPasswordSchema = z
  .object({
    email: emailField,
    code: codeField,
    password: passwordField,
    confirmPassword: z.string({ error: "Passwords don't match" }),
  })
  .refine((form) => form.password === form.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] })
