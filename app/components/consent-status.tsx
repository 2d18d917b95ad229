import { formatLabDate, formatLabDateTime } from '~/lib/lab-time'
import type { ConsentStatus } from '~/modules/swimmers/consent.server'

/**
 * Where a swimmer's parental consent stands, in a sentence or two. `self`: the swimmer is the person
 * reading (a swimmer under 18 who holds the account), so the page speaks to them.
 */
export function ConsentStatusNote({ status, swimmerName, self = false }: { status: ConsentStatus; swimmerName: string; self?: boolean }) {
  switch (status.state) {
    case 'not_needed':
      return null
    case 'given':
      return (
        <p className="rounded-lg bg-green-50 p-3 text-sm text-green-900">
          {`Parent's consent given by ${status.guardianName} on ${formatLabDate(status.givenAt)}.`}
        </p>
      )
    case 'checking':
      return (
        <p role="status" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-950">
          {`Parent's consent given by ${status.guardianName} on ${formatLabDate(status.givenAt)}. The lab checks this consent before anything is booked, and e-mails ${self ? 'you' : 'the account'} once it is done.`}
        </p>
      )
    case 'not_asked':
      return (
        <p role="status" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-950">
          {self
            ? `We have not asked your parent or guardian yet: when you registered you gave ${status.parentEmail}. Check the address and send them the link below. You can book once they agree.`
            : `No parent has been asked yet: ${swimmerName} gave ${status.parentEmail} when registering.`}
        </p>
      )
    case 'waiting':
      return (
        <p role="status" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-950">
          {self
            ? `Waiting for your parent or guardian: we e-mailed ${status.parentEmail} a link to agree. You can book once they agree. The link works until ${formatLabDateTime(status.expiresAt)}.`
            : `Waiting for a parent's consent: we e-mailed ${status.parentEmail} a link, which works until ${formatLabDateTime(status.expiresAt)}. ${swimmerName} can be booked once they agree.`}
        </p>
      )
    case 'refused':
      return (
        <p className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
          {self ? 'Your parent or guardian did not agree, so we cannot book anything for you and your account will be erased.' : `The parent did not agree: ${swimmerName} cannot be booked, and the account will be erased.`}
        </p>
      )
    case 'missing':
      return (
        <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-950">
          {self ? "We do not have your parent's or guardian's consent yet, so you cannot book. Send them the link again below." : `No parent's consent: ${swimmerName} is under 18 and cannot be booked until a parent or guardian gives it.`}
        </p>
      )
  }
}
