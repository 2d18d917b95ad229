import { data } from 'react-router'
import { DomainError, type DomainErrorKind } from '~/lib/domain-error'

/** The HTTP status that answers each kind of domain error. */
const STATUS_OF: Record<Exclude<DomainErrorKind, 'not_found'>, number> = { invalid: 400, conflict: 409, rate_limited: 429, unavailable: 502 }

const NOT_FOUND = 'Not found'

export type Refusal = { error: DomainError; message: string; status: number }

/**
 * What a page answers when a domain module threw: a refusal of the rules, with its message and the
 * status of its kind. Something not found is answered with the site's 404 page; anything that is not
 * a domain error (a bug, a failure) is thrown on.
 */
export function refusalOf(error: unknown): Refusal {
  if (!(error instanceof DomainError)) throw error
  if (error.kind === 'not_found') throw data(NOT_FOUND, { status: 404 })
  return { error, message: error.message, status: STATUS_OF[error.kind] }
}

/** The answer of a page that shows a refusal as one message: `{ error }`, with the status of its kind. */
export function refusalData(error: unknown) {
  const refusal = refusalOf(error)
  return data({ error: refusal.message }, { status: refusal.status })
}

/** The refusal as a form's errors: next to the field it is about, or above the form. */
export function formErrorsOf({ error }: Refusal) {
  return error.field ? { fieldErrors: { [error.field]: [error.message] } } : { formErrors: [error.message] }
}

/** The 404 page unless `condition` holds: `notFoundUnless(booking)` after looking the booking up. */
export function notFoundUnless(condition: unknown, body = NOT_FOUND): asserts condition {
  if (!condition) throw data(body, { status: 404 })
}
