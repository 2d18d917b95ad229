import { formatPhone } from '~/lib/phone'
import { bookingSwimmerChoices } from '~/modules/booking/public-booking.server'
import { whatsappEnabled } from '~/modules/whatsapp/config.server'
import { WHATSAPP_OPT_IN_WORDING } from '~/modules/whatsapp/consent.server'

/** A guest is asked whether they swim themselves or someone else does. */
const GUEST = { swimmers: null, someoneElse: true }

/**
 * What the public booking forms (/booking, an analysis day's page) ask of who books and who swims,
 * for the visitor: the WhatsApp box's wording while the site sends WhatsApp messages, the answers
 * to "Who will swim?" (a guest themselves or someone else; a signed-in customer their account's
 * swimmers, and someone else where they may book for them), and the details filled in for them (a
 * signed-in customer's own, and the swimmer they booked for last).
 */
export async function bookingDetailsForm(user: { id: number; name: string; email: string; phone: string | null } | null) {
  const choices = user ? await bookingSwimmerChoices(user.id) : null
  return {
    whatsappOptIn: whatsappEnabled() ? WHATSAPP_OPT_IN_WORDING : null,
    whoSwims: choices ? { swimmers: choices.swimmers.map(({ id, name, mayBeBooked }) => ({ id, name, mayBeBooked })), someoneElse: choices.someoneElse } : GUEST,
    prefill: {
      ...(user ? { name: user.name, email: user.email, phone: user.phone ? formatPhone(user.phone) : '' } : {}),
      // Signed in: the swimmer booked for last, as on /book-slot.
      whoSwims: choices ? (choices.preselected === null ? undefined : String(choices.preselected)) : 'myself',
    },
  }
}
