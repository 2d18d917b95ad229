import { isValidPhoneNumber } from 'libphonenumber-js/mobile'

/**
 * Phone numbers are stored in E.164 (+919845012345): the form WhatsApp addresses and the one way two
 * numbers typed differently ("98450 12345", "+91 98450-12345") compare equal. Shared by the forms'
 * schemas in the browser and on the server.
 */

/** Spaces, dashes, dots and brackets people type between the digits. */
const SEPARATORS = /[\s().-]/g

/**
 * The E.164 form of what a person typed, or null when it is not a mobile number in use: a 10-digit
 * Indian mobile (starting 6-9, with or without 0, 91 or +91 in front) becomes +91 and its ten
 * digits; any other number needs its country code after a +. The shape is not enough: the country
 * code and the range must be ones given out for mobiles (libphonenumber's data), so
 * "+999999999999999" is no number.
 */
export function toE164(typed: string): string | null {
  const shaped = e164Shape(typed)
  return shaped && isValidPhoneNumber(shaped) ? shaped : null
}

/** Whether typed digits have the shape of a mobile number (as `toE164` reads them) but are no number in use. */
export function isUnknownNumber(typed: string) {
  const shaped = e164Shape(typed)
  return shaped !== null && !isValidPhoneNumber(shaped)
}

function e164Shape(typed: string): string | null {
  const compact = typed.trim().replace(SEPARATORS, '')
  if (!/^\+?\d+$/.test(compact)) return null
  const international = compact.startsWith('+')
  const digits = international ? compact.slice(1) : compact
  if (!international || digits.startsWith('91')) {
    return /^(?:0|91)?[6-9]\d{9}$/.test(digits) && !(international && digits.length !== 12) ? `+91${digits.slice(-10)}` : null
  }
  return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : null
}

/** How many digits a number has, whatever else was typed with them. */
export function digitCount(typed: string) {
  return typed.replace(/\D/g, '').length
}

/** An E.164 number as people read it: "+91 98450 12345" for an Indian mobile, as stored otherwise. */
export function formatPhone(e164: string) {
  const indian = /^\+91(\d{5})(\d{5})$/.exec(e164)
  return indian ? `+91 ${indian[1]} ${indian[2]}` : e164
}

/** The address of a chat with a number on WhatsApp (https://wa.me/919845012345), or null for a number that is not one. */
export function whatsappChatLink(typed: string, text?: string) {
  const e164 = toE164(typed)
  if (!e164) return null
  return `https://wa.me/${e164.slice(1)}${text ? `?text=${encodeURIComponent(text)}` : ''}`
}

/** The address that opens WhatsApp with `text` written, for the sender to choose whom to send it to. */
export function whatsappMessageLink(text: string) {
  return `https://wa.me/?text=${encodeURIComponent(text)}`
}
