import { formatLabDateTime } from '~/lib/lab-time'
import { formatRupees } from '~/lib/money'
import { PRODUCT_NAME } from '~/lib/seo'
import { letter } from '~/modules/mail/templates.server'
import type { FutureBooking } from '~/modules/future-bookings/future-bookings.server'

// The e-mails about a person's own data. The last ones go to an address whose account is already
// erased: they name no swimmer and greet nobody by name.

export function deletionCodeEmail({ to, name, code, expiresAt }: { to: string; name: string; code: string; expiresAt: Date }) {
  return letter({
    to,
    subject: `Your code to delete your account at ${PRODUCT_NAME}`,
    name,
    paragraphs: [
      'Someone (hopefully you) asked to delete your account. Enter this code on the page to confirm:',
      `    ${code}`,
      `The code is valid for 30 minutes (until ${formatLabDateTime(expiresAt)}).`,
    ],
    closing: 'If you did not ask for this, ignore this e-mail: nothing is deleted without the code, and you may want to change your password.',
  })
}

function cancellationLines(cancelled: FutureBooking[]) {
  return cancelled.map((booking) => `${booking.reference} (${booking.title}): cancelled, ${booking.refundable ? `${formatRupees(booking.amountPaise)} refunded to the original payment method` : 'not refunded (less than 24 hours before it began)'}`)
}

const KEPT = 'As Indian tax law requires, we keep the invoices of your payments (their numbers, amounts and dates) for 8 years; they no longer carry your name, e-mail address or phone number.'

export function accountErasedEmail({ to, cancelled }: { to: string; cancelled: FutureBooking[] }) {
  return letter({
    to,
    subject: `Your account at ${PRODUCT_NAME} has been deleted`,
    name: 'there',
    paragraphs: [
      'As you asked, we have deleted your account, its swimmer profiles, reports and e-mails, and erased your details from our records.',
      KEPT,
      'This is the last e-mail we send you. You are welcome back at any time with a new account.',
    ],
    list: cancelled.length ? { title: 'Sessions and camp places cancelled:', items: cancellationLines(cancelled) } : undefined,
  })
}

export function consentLapsedEmail({ to, refused, cancelled }: { to: string; refused: boolean; cancelled: FutureBooking[] }) {
  return letter({
    to,
    subject: `Your account at ${PRODUCT_NAME} has been deleted`,
    name: 'there',
    paragraphs: [
      refused
        ? "Your parent or guardian did not agree to our keeping your details, so, as the law asks for swimmers under 18, we have deleted your account and everything in it."
        : "We asked your parent or guardian for their consent, as the law asks for swimmers under 18, and nobody answered within 7 days, so we have deleted your account and everything in it.",
      KEPT,
      'You are welcome to register again together with your parent or guardian: they can create the account and add you as their swimmer.',
    ],
    list: cancelled.length ? { title: 'Sessions and camp places cancelled:', items: cancellationLines(cancelled) } : undefined,
  })
}
