import { dictionary } from '@zxcvbn-ts/language-common'
import { DomainError } from '~/lib/domain-error'

/** Customers keep the site's long-standing minimum (see passwordField); staff hold the keys to every booking and payment. */
export const STAFF_PASSWORD_MIN = 12

export const STAFF_PASSWORD_TOO_SHORT = `Staff passwords must be at least ${STAFF_PASSWORD_MIN} characters`
export const COMMON_PASSWORD = 'This password is too common and easy to guess. Please choose another one.'

export class WeakPasswordError extends DomainError {
  constructor(message: string) {
    super('invalid', message, 'password')
  }
}

// About 49,000 passwords seen most often in breaches (zxcvbn-ts's common list, all lower case),
// built on first use so that only the code paths that set a password pay for it.
let common: Set<string> | undefined

export function isCommonPassword(password: string) {
  common ??= new Set(dictionary['passwords-common'])
  return common.has(password.toLowerCase())
}

/** What is wrong with a new password, or null. Length rules for everyone are in the forms' schemas. */
export function passwordProblem(password: string, { staff }: { staff: boolean }): string | null {
  if (staff && password.length < STAFF_PASSWORD_MIN) return STAFF_PASSWORD_TOO_SHORT
  if (isCommonPassword(password)) return COMMON_PASSWORD
  return null
}

/** Throws WeakPasswordError when `password` may not be set on a customer's (or, with `staff`, a staff) account. */
export function assertAcceptablePassword(password: string, { staff }: { staff: boolean }) {
  const problem = passwordProblem(password, { staff })
  if (problem) throw new WeakPasswordError(problem)
}
