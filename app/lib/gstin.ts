// A GSTIN, the number of a GST registration: the 2-digit state code, the holder's PAN (5 letters, 4
// digits, 1 letter), the registration number under that PAN, the letter Z, and a check character.

export const GSTIN_FORMAT = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/

const CHARACTERS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'

/**
 * The check character of a GSTIN's first 14 characters, as the GST network computes it: each
 * character's value (0-9, then A-Z as 10-35), every second one doubled, the quotient and remainder
 * by 36 of each product added up, and the character that brings the sum to a multiple of 36.
 */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0
  for (let index = 0; index < 14; index++) {
    const product = CHARACTERS.indexOf(first14[index]!) * (index % 2 === 0 ? 1 : 2)
    sum += Math.floor(product / 36) + (product % 36)
  }
  return CHARACTERS[(36 - (sum % 36)) % 36]!
}

/**
 * What is wrong with a GSTIN given for a registration in the state `stateCode`, as a sentence for
 * the field; null when it is a GSTIN of that state whose check character is right.
 */
export function gstinProblem(gstin: string, stateCode: string): string | null {
  if (gstin.length !== 15) return `A GSTIN has 15 characters; this one has ${gstin.length}`
  if (!GSTIN_FORMAT.test(gstin)) return 'Enter the GSTIN as issued: 2 digits, a PAN (5 letters, 4 digits, a letter), an entity number, Z and a check character'
  if (gstinCheckCharacter(gstin) !== gstin[14]) return 'This GSTIN’s last character does not match the others: check it for a typing mistake'
  if (gstin.slice(0, 2) !== stateCode) return `This GSTIN is of state ${gstin.slice(0, 2)}; a registration for this venue starts with its state’s code, ${stateCode}`
  return null
}

/** The prefix of the lab's own invoice series; a venue where the lab holds a registration of its own numbers in its own (`PUN`). */
export const LAB_SERIES_PREFIX = 'SSL'

/** A venue's invoice series: 1 to 3 capital letters or digits, starting with a letter, so its numbers fit GST's 16 characters. */
export const INVOICE_SERIES_FORMAT = /^[A-Z][A-Z0-9]{0,2}$/

/** What is wrong with an invoice series typed for a venue, as a sentence for the field; null when it will do. */
export function invoiceSeriesProblem(series: string): string | null {
  if (!INVOICE_SERIES_FORMAT.test(series)) return 'Enter a short series of 1 to 3 letters or digits, starting with a letter, for example PUN'
  if (series === LAB_SERIES_PREFIX) return `${LAB_SERIES_PREFIX} is the lab’s own series: choose another for this venue`
  return null
}
