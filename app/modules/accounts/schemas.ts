// The forms' rules and the exact messages a visitor sees, used by the server actions and, in the
// browser, for validation as you type. Nothing server-only may be imported here.
import { z } from 'zod'
import { whatsappOptInField } from '~/lib/phone-field'
import { optionValues, WHO_SWIMS } from '~/modules/forms/choices'
import { declarationField, emailField, once, personNameField, text, whatsappNumberField } from '~/modules/forms/fields'
import { describesMinor, GUARDIAN_DECLARATION_MESSAGE, heardAboutFields, PARENT_EMAIL_MESSAGE, swimmerFields, withAgeRules } from '~/modules/swimmers/schemas'

const passwordField = z
  .string({ error: 'Password must be at least 6 characters' })
  .min(6, 'Password must be at least 6 characters')
  .max(128, 'Password must be at most 128 characters')

/**
 * Registration: the account holder (name, e-mail, password, WhatsApp number, location) and the first
 * swimmer, themselves or a child. A child under 18 needs the guardian's declaration in the form; a
 * swimmer under 18 registering themselves names a parent, who is asked for consent by e-mail.
 * `today` is the lab's date (labToday()), for the age rules.
 */
export const registrationSchema = (today: string) =>
  withAgeRules(
    z.object({
      whoSwims: z.enum(optionValues(WHO_SWIMS), { error: 'Please choose who will swim' }).default('myself'),
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
