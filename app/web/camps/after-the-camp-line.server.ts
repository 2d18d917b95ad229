import { logger } from '~/lib/logger.server'
import { CAMP_STATUS_LINK, privateLinkPath, privateLinkUrl, WAITLIST_OFFER_LINK } from '~/lib/private-links.server'
import type { LineArrival } from '~/modules/camps/line.server'
import { heldSeatAddress, latestCampOrder } from '~/modules/camps/status.server'
import { checkout } from '~/modules/payments/checkout.server'
import { HoldExpiredError } from '~/modules/payments/payments.server'
import { refusalOf } from '~/web/refusals.server'

/** What a parent typed on the camp form, sent along when they join a waitlist or try again. */
export type CampApplicantFields = { name: string; email: string; phone_number: string; camp: string; batch: string }

type LineAnswer = { kind: 'full'; message: string; applicant: CampApplicantFields } | { kind: 'refused'; message: string; applicant: CampApplicantFields }

const WAITLIST_INVITATION = 'You can join its waitlist: we e-mail you as soon as a seat frees up.'

/**
 * Where a settled place in the camp line leads: to the seat's summary, when a seat is held for the
 * parent (priced with the promo code kept with the place; `network` is who asks, whose attempts at
 * codes are counted), where they see what they will pay and go on to pay it; or to the payment's
 * status page once its hold is over (paid, or not); otherwise the answer to show, with its status.
 */
export async function afterTheLine(arrival: LineArrival, { network }: { network: string }): Promise<{ go: string } | { answer: LineAnswer; status: number }> {
  const promo = arrival.promoCode
  const applicant = { name: arrival.swimmerName, email: arrival.email, phone_number: arrival.phone, camp: arrival.campCode, batch: arrival.batchCode }
  switch (arrival.outcome) {
    case 'full':
      return { answer: { kind: 'full', message: `${arrival.message} ${WAITLIST_INVITATION}`, applicant }, status: 409 }
    case 'limited':
      return { answer: { kind: 'refused', message: arrival.message ?? '', applicant }, status: 429 }
    case 'seat':
      if (arrival.registrationId !== null) {
        try {
          const checked = await checkout({ payable: { kind: 'camp', id: arrival.registrationId }, promo: promo ? { code: promo, network, givesUpWhen: 'refused' } : undefined })
          if ('refused' in checked) throw checked.refused
          const seat = await heldSeatAddress(arrival.registrationId)
          if (seat) return { go: await privateLinkPath(WAITLIST_OFFER_LINK, seat) }
          throw new HoldExpiredError()
        } catch (error) {
          const refused = refusalOf(error).error
          // The code stopped applying while the parent waited (used up, switched off): nothing stays held.
          if (refused.field === 'promoCode') return { answer: { kind: 'refused', message: `Promo code ${promo}: ${refused.message}`, applicant }, status: 409 }
          // The place's link opened again after paying (or after the hold ran out): the payment says how it went.
          const orderId = refused instanceof HoldExpiredError ? await latestCampOrder(arrival.registrationId) : null
          if (orderId) return { go: await statusAddress(orderId) }
          logger().error({ err: refused.cause ?? refused, registrationId: arrival.registrationId }, 'camp payment could not start')
        }
      }
      return { answer: { kind: 'refused', message: 'Payment Error: Unable to create payment. Please try again.', applicant }, status: 502 }
    default:
      return { answer: { kind: 'refused', message: arrival.message ?? '', applicant }, status: 409 }
  }
}

function statusAddress(orderId: string) {
  return privateLinkUrl(CAMP_STATUS_LINK, orderId)
}
