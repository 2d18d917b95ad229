import { dictionary } from '@zxcvbn-ts/language-common'

// The rules a password is held to, which the first admin's ADMIN_PASSWORD meets at start-up as every
// password set through the site does (app/modules/accounts/password-policy.server.ts).

/** Customers keep the site's long-standing minimum (see passwordField); staff hold the keys to every booking and payment. */
export const STAFF_PASSWORD_MIN = 12

// About 49,000 passwords seen most often in breaches (zxcvbn-ts's common list, all lower case),
// built on first use so that only the code paths that set a password pay for it.
let common: Set<string> | undefined

export function isCommonPassword(password: string) {
  common ??= new Set(dictionary['passwords-common'])
  return common.has(password.toLowerCase())
}
