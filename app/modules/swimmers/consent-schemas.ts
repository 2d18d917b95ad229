// The forms about a parent's consent and the messages people see, used by the server and, in the
// browser, for validation as you type. Nothing server-only may be imported here.
import { z } from 'zod'
import { emailField, personNameField } from '~/modules/forms/fields'

/** A declaration box, never ticked for the person: only 'on' (a ticked checkbox) counts. */
const requiredDeclaration = (message: string) =>
  z
    .string({ error: message })
    .optional()
    .refine((value) => value === 'on', message)
    .transform(() => true as const)

export const PARENT_DECLARATION_MESSAGE = "Please confirm that you are this swimmer's parent or legal guardian"

/** The parent agreeing through the e-mailed link: their full name and that they are the parent or guardian. */
export const ConsentAgreeSchema = z.object({
  guardianName: personNameField({ required: 'Please enter your full name' }),
  declaration: requiredDeclaration(PARENT_DECLARATION_MESSAGE),
})

/** A swimmer under 18 sending the consent link again, to a corrected address if need be. */
export const ConsentResendSchema = z.object({ parentEmail: emailField })

export const GIVE_AGAIN_MESSAGE = "Please confirm that you are the swimmer's parent or legal guardian and agree to the Privacy Policy"

/** The account holder giving consent again for their child. */
export const ConsentGiveSchema = z.object({ declaration: requiredDeclaration(GIVE_AGAIN_MESSAGE) })
