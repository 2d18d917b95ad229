/**
 * What kind of refusal a domain error is. Pages answer each kind with one HTTP status
 * (app/web/refusals.server.ts), so a module says what went wrong and never how it is shown.
 */
export type DomainErrorKind =
  /** What was sent breaks a rule of the form: a weak password, a setting out of range. */
  | 'invalid'
  /** What was asked for does not exist (or is not the asker's to see). */
  | 'not_found'
  /** The state of things does not allow it: the seat is taken, the booking is cancelled, it is too late. */
  | 'conflict'
  /** The caller has used up a limit for now. */
  | 'rate_limited'
  /** A service the lab depends on (the payment gateway) could not do its part. */
  | 'unavailable'

/**
 * The lab's rules refusing what was asked, with the message the person sees. `field` names the
 * form field the message belongs next to, when it is about one.
 */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly field?: string,
  ) {
    super(message)
    this.name = new.target.name
  }
}
