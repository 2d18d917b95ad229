import { db, type Executor } from '~/db/client.server'
import type { About, MessageLink } from '~/db/schema'
import { isPersonName } from '~/lib/person-name'
import { toE164 } from '~/lib/phone'
import { enqueueWhatsApp } from '~/modules/mail/outbox.server'
import { whatsappEnabled } from './config.server'
import { isOptedIn } from './consent.server'
import { linkToKeep } from './links.server'
import { withinDailyMessages } from './numbers.server'
import { renderTemplate, templateParameter, WHATSAPP_TEMPLATES, type WhatsAppTemplateName } from './templates'

/**
 * Who a message goes to and what fills its template's variables: text, or a private link (kept
 * without its key, made whole when sent). `names` are the names of people the parameters carry, as
 * stored: one stored before names were letters only may hold anything, and none of those reaches
 * WhatsApp (see `withoutStrangeNames`). `about`: whose booking, place or account it tells of.
 */
export type WhatsAppNotice = { phone: string | null | undefined; parameters: ReadonlyArray<string | MessageLink>; names?: ReadonlyArray<string | null | undefined>; about: About }

/** What stands in a message for a name that is not only letters. */
export const NAME_NOT_SHOWN = '(name not shown)'

/**
 * Queues a template message to a person's WhatsApp number, in the transaction of the event it tells
 * of (like its e-mail), when WhatsApp is on and the number is opted in; otherwise does nothing.
 * Given as a function, the notice is read only when WhatsApp is on: an event reads nothing for a
 * message that will not be sent. Returns the outbox id, or null when nothing was queued.
 */
export async function notifyOnWhatsApp(
  name: WhatsAppTemplateName,
  notice: WhatsAppNotice | (() => Promise<WhatsAppNotice>),
  executor: Executor = db(),
  now = new Date(),
) {
  if (!whatsappEnabled()) return null
  const { phone, parameters, names = [], about } = typeof notice === 'function' ? await notice() : notice
  const to = phone ? toE164(phone) : null
  if (!to || !(await isOptedIn(to, executor))) return null
  const template = WHATSAPP_TEMPLATES[name]
  if (parameters.length !== template.parameters.length) throw new Error(`${name} takes ${template.parameters.length} parameters, not ${parameters.length}`)
  const linkAt = parameters.findIndex((parameter) => typeof parameter !== 'string')
  const link = linkAt >= 0 ? (parameters[linkAt] as MessageLink) : null
  const kept = await Promise.all(parameters.map(async (parameter) => (typeof parameter === 'string' ? withoutStrangeNames(parameter, names) : linkToKeep(parameter, executor))))
  const values = kept.map(templateParameter)
  return withinDailyMessages(to, executor, now, (tx) =>
    enqueueWhatsApp(
      { to, title: template.title, text: renderTemplate(name, values), template: { name, parameters: values }, ...(link ? { privateLink: { parameter: linkAt, ...link } } : {}) },
      about,
      tx,
      now,
    ),
  )
}

/**
 * The parameter with every name that is not a name by today's rule (letters, not digits or links)
 * left out. Names are put into the lab's approved templates, sent from the lab's verified number to
 * numbers nobody may have proven: "Pay Rs 500 By GPay To 9812345678", stored as someone's name
 * before the rule, must never arrive there.
 */
function withoutStrangeNames(parameter: string, names: ReadonlyArray<string | null | undefined>) {
  return names.reduce<string>((text, name) => (name && !isPersonName(name.trim()) ? text.split(name).join(NAME_NOT_SHOWN) : text), parameter)
}
