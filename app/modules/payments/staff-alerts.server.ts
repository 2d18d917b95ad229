import { eq } from 'drizzle-orm'
import { config } from '~/config.server'
import { bookings, campRegistrations, camps, payments, refunds, siteSettings } from '~/db/schema'
import { formatRupees } from '~/lib/money'
import type { Executor } from '~/db/client.server'
import { letter } from '~/modules/mail/templates.server'
import { adminBookingLink, adminCampLink } from '~/lib/links'

/**
 * E-mails to the lab's support address about money the website cannot settle by itself: each
 * names the customer, the order and a link to the booking or camp in the admin console.
 */

async function paymentParties(executor: Executor, paymentId: number) {
  const [row] = await executor
    .select({
      orderId: payments.orderId,
      bookingReference: bookings.reference,
      bookingName: bookings.customerName,
      bookingEmail: bookings.customerEmail,
      registrationReference: campRegistrations.reference,
      registrationName: campRegistrations.swimmerName,
      registrationEmail: campRegistrations.email,
      campCode: camps.code,
    })
    .from(payments)
    .leftJoin(bookings, eq(bookings.id, payments.bookingId))
    .leftJoin(campRegistrations, eq(campRegistrations.id, payments.campRegistrationId))
    .leftJoin(camps, eq(camps.id, campRegistrations.campId))
    .where(eq(payments.id, paymentId))
  const [settings] = await executor.select({ supportEmail: siteSettings.supportEmail }).from(siteSettings).where(eq(siteSettings.id, 1))
  const page = row?.bookingReference ? adminBookingLink(row.bookingReference) : row?.campCode ? adminCampLink(row.campCode) : null
  return {
    to: settings!.supportEmail,
    orderId: row!.orderId,
    reference: row?.bookingReference ?? row?.registrationReference ?? 'unknown',
    customer: `${row?.bookingName ?? row?.registrationName ?? ''} <${row?.bookingEmail ?? row?.registrationEmail ?? ''}>`,
    action: page ? { label: row?.bookingReference ? 'Open the booking' : 'Open the camp', url: `${config().SITE_URL}${page}` } : undefined,
  }
}

/** The customer has not been repaid and nothing more will happen by itself. */
export async function refundFailedAlert(executor: Executor, refundId: string) {
  const [refund] = await executor.select({ paymentId: refunds.paymentId, amountPaise: refunds.amountPaise, reason: refunds.reason }).from(refunds).where(eq(refunds.refundId, refundId))
  const parties = await paymentParties(executor, refund!.paymentId)
  return letter({
    to: parties.to,
    subject: `Refund failed: ${formatRupees(refund!.amountPaise)} for ${parties.reference}`,
    name: 'team',
    paragraphs: [
      `The payment gateway reported that refund ${refundId} failed. The customer has not been repaid and the website will not try again: please repay them by hand (from the gateway's dashboard or by bank transfer) and let them know.`,
    ],
    details: [
      ['Reference', parties.reference],
      ['Customer', parties.customer],
      ['Amount', formatRupees(refund!.amountPaise)],
      ['Order', parties.orderId],
      ['Refund', refundId],
      ['Why it was refunded', refund!.reason],
    ],
    action: parties.action,
  })
}

/**
 * The gateway says an order was paid, but for another amount than we asked: the booking or
 * registration is not confirmed, and the money taken has to be looked at by a person.
 */
export async function amountMismatchAlert(executor: Executor, { paymentId, expectedPaise, reportedPaise }: { paymentId: number; expectedPaise: number; reportedPaise: number | null }) {
  const reported = reportedPaise === null ? 'no amount' : formatRupees(reportedPaise)
  const parties = await paymentParties(executor, paymentId)
  return letter({
    to: parties.to,
    subject: `Payment amount mismatch: ${parties.orderId} for ${parties.reference}`,
    name: 'team',
    paragraphs: [
      `The payment gateway reports order ${parties.orderId} as paid, but for ${reported} instead of the ${formatRupees(expectedPaise)} the website asked for. The website has not confirmed it and will release the seat when the order expires.`,
      `Please check the order in the gateway's dashboard, then refund the customer or settle it with them by hand.`,
    ],
    details: [
      ['Reference', parties.reference],
      ['Customer', parties.customer],
      ['Asked for', formatRupees(expectedPaise)],
      ['Reported paid', reported],
      ['Order', parties.orderId],
    ],
    action: parties.action,
  })
}
