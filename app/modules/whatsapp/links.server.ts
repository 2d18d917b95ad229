import { eq } from 'drizzle-orm'
import { config } from '~/config.server'
import { db, type Executor } from '~/db/client.server'
import { campRegistrations, type MessageLink, type MessageLinkReference } from '~/db/schema'
import { ANALYSIS_DAY_OFFER_LINK, GUEST_BOOKING_LINK, privateLinks, WAITLIST_OFFER_LINK } from '~/lib/private-links.server'
import { campRegistrationLink } from '~/lib/links'

/**
 * Links in WhatsApp messages that open something private: a guest's booking (its key shows the
 * booking, the e-mail address and the receipts, and lets it be changed), a seat offered from the
 * waitlist (a camp's or an analysis day's), the camp form filled in with a parent's e-mail and number. Messages are kept (for staff,
 * the data export, retries), so the message keeps such a link without its key or personal details,
 * and what it points to; the whole link is made only when the message is sent.
 */

/** What a link carries that only its recipient may see: a private link's key, a form's filled-in details. */
const PRIVATE_QUERY = ['key', 'email', 'phone']

/** The link in a message as it is sent: the key made again from the installation's secret, the details read now. */
export async function linkToSend(link: MessageLink, executor: Executor = db()) {
  switch (link.kind) {
    case 'guest-booking':
      return (await privateLinks(executor)).url(GUEST_BOOKING_LINK, link.reference)
    case 'waitlist-offer':
      return (await privateLinks(executor)).url(WAITLIST_OFFER_LINK, link.reference)
    case 'analysis-day-offer':
      return (await privateLinks(executor)).url(ANALYSIS_DAY_OFFER_LINK, link.reference)
    case 'register-again': {
      const [registration] = await executor.select({ email: campRegistrations.email, phone: campRegistrations.phone }).from(campRegistrations).where(eq(campRegistrations.id, link.registrationId))
      return campFormFilledIn(registration ?? null)
    }
  }
}

/** The link as the kept message shows it: where it leads, without the key or anyone's details. */
export async function linkToKeep(link: MessageLink, executor: Executor = db()) {
  const url = new URL(await linkToSend(link, executor))
  for (const name of PRIVATE_QUERY) url.searchParams.delete(name)
  return url.toString()
}

/**
 * Where a parent whose camp payment failed registers again: the seat is released (a waitlist offer
 * has passed to the next in line), so it is the registration form, with their e-mail and phone filled in.
 */
export function campFormFilledIn(parent: { email: string; phone: string } | null) {
  return `${config().SITE_URL}${campRegistrationLink(parent ?? undefined)}`
}

/** The parameters of a message as sent: the kept ones, with its private link made whole. */
export async function parametersToSend(message: { templateParams: string[] | null; privateLink: MessageLinkReference | null }, executor: Executor = db()) {
  const parameters = [...(message.templateParams ?? [])]
  const link = message.privateLink
  if (link && link.parameter >= 0 && link.parameter < parameters.length) parameters[link.parameter] = await linkToSend(link, executor)
  return parameters
}
