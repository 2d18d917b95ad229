import { z } from 'zod'
import { digitCount, isUnknownNumber, toE164 } from './phone'

// The phone and WhatsApp number fields of every form, and their opt-in box: the same checks and
// messages everywhere, in the browser as on the server. Nothing server-only may be imported here.

/** A number with the digits but not the shape of a mobile number (a landline, a country code missing). */
export const INVALID_WHATSAPP_NUMBER = 'Enter a valid WhatsApp number: 10 digits for an Indian mobile, or + and the country code'
export const INVALID_PHONE_NUMBER = 'Enter a valid mobile number: 10 digits for an Indian mobile, or + and the country code'
/** A number of the right shape that belongs to no one: no such country code, or a range given out to no mobile. */
export const NO_SUCH_NUMBER = 'There is no mobile number with these digits: please check the country code and the number'
/** The opt-in box ticked on a form whose number was left out. */
export const WHATSAPP_NUMBER_NEEDED = 'Enter your WhatsApp number to get messages on WhatsApp'

/**
 * A mobile number as typed ("98450 12345", "+91 98450-12345", "+44 7700 900123"), kept in E.164
 * (+919845012345). Too few digits gets the form's own message; the wrong shape gets `invalid`; the
 * right shape with digits no mobile has ("+999999999999999") says so.
 * Optional fields are made optional by the caller (`.optional()`): a blank field never reaches here.
 */
export const phoneField = ({ tooShort, invalid }: { tooShort: string; invalid: string }) =>
  z
    .string({ error: tooShort })
    .trim()
    .max(20, 'Please use at most 20 characters')
    .superRefine((typed, context) => {
      if (digitCount(typed) < 10) context.addIssue({ code: 'custom', message: tooShort })
      else if (isUnknownNumber(typed)) context.addIssue({ code: 'custom', message: NO_SUCH_NUMBER })
      else if (!toE164(typed)) context.addIssue({ code: 'custom', message: invalid })
    })
    .transform((typed) => toE164(typed)!)

/**
 * The WhatsApp opt-in box: never ticked for the person, so only 'on' (a ticked checkbox) counts.
 * `true` is the same answer kept between the steps of a form (the booking draft).
 */
export const whatsappOptInField = z
  .union([z.string(), z.boolean()])
  .optional()
  .transform((value) => value === 'on' || value === true)
