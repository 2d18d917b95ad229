import { isCommonPassword, STAFF_PASSWORD_MIN } from '~/config/password-rules.server'
import { DomainError } from '~/lib/domain-error'

export const STAFF_PASSWORD_TOO_SHORT = `Staff passwords must be at least ${STAFF_PASSWORD_MIN} characters`
export const COMMON_PASSWORD = 'This password is too common and easy to guess. Please choose another one.'

export class WeakPasswordError extends DomainError {
  constructor(message: string) {
    super('invalid', message, 'password')
  }
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
