// The form that describes a swimmer (added to an account, edited, or the first one on registration)
// and its messages, for the server actions and, in the browser, for validation as you type.
// Nothing server-only may be imported here.
import { z } from 'zod'
import { GENDERS, HOW_DID_YOU_KNOW, optionValues, PARTICIPATE_IN_EVENTS, SPECIALIZATIONS, SWIMMING_EXPERIENCE } from '~/modules/forms/choices'
import { declarationField, once, optionalText, personNameField, text } from '~/modules/forms/fields'
import { isMinorOn, type KnownAge } from './age'

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
  gender: z.enum(optionValues(GENDERS), { error: 'Please select your gender' }),
  swimmingExperience: z.enum(optionValues(SWIMMING_EXPERIENCE), { error: 'Please select your swimming experience' }),
  academyName: text('Academy name is required (Enter NA if not applicable)', 1, 100),
  coachName: personNameField({ required: 'Coach name is required (Enter NA if not applicable)', min: 1 }),
  specialization: z.enum(optionValues(SPECIALIZATIONS), { error: 'Please select your specialization' }),
  otherSpecialization: optionalText(100),
  participateInEvents: z.enum(optionValues(PARTICIPATE_IN_EVENTS), { error: 'Please select if you participate in events' }),
  strokeBestTime: z
    .string()
    .trim()
    .regex(/^\d{1,2}:[0-5]\d(\.\d{1,3})?$/, 'Enter the time as mm:ss.ms, for example 01:05.32')
    .optional(),
}

/** How the family heard of the lab: asked once, on registration, and kept with the first swimmer. */
export const heardAboutFields = {
  howDidYouKnow: z.enum(optionValues(HOW_DID_YOU_KNOW), { error: 'Please select how you got to know about us' }),
  otherSource: optionalText(100),
}

export type HeardAboutInput = Partial<z.output<z.ZodObject<typeof heardAboutFields>>>

export type AgeAnswer = { age?: number | null; birthDate?: string | null }

/** The age is required unless a date of birth is given; a date of birth is not in the future. */
export function withAgeRules<T extends z.ZodType<AgeAnswer>>(schema: T, today: string) {
  return schema
    .refine((form) => Boolean(form.birthDate) || (form.age !== null && form.age !== undefined), { message: 'Age is required', path: ['age'], ...once('age', 'birthDate') })
    .refine((form) => !form.birthDate || form.birthDate <= today, { message: BIRTH_DATE_MESSAGE, path: ['birthDate'], ...once('birthDate') })
}

/** Whether the swimmer the form describes is under 18 today (false while the age is not known). */
export function describesMinor(form: AgeAnswer, today: string) {
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
