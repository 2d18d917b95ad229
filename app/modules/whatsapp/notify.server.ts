import { db, type Executor } from '~/db/client.server'
import { toE164 } from '~/lib/phone'
import { enqueueWhatsApp } from '~/modules/mail/outbox.server'
import { whatsappEnabled } from './config.server'
import { isOptedIn } from './consent.server'
import { renderTemplate, templateParameter, WHATSAPP_TEMPLATES, type WhatsAppTemplateName } from './templates'

/**
 * Queues a template message to a person's WhatsApp number, in the transaction of the event it tells
 * of (like its e-mail), when WhatsApp is on and the number is opted in; otherwise does nothing.
 * Returns the outbox id, or null when nothing was queued.
 */
export async function notifyOnWhatsApp(
  phone: string | null | undefined,
  name: WhatsAppTemplateName,
  parameters: readonly string[],
  executor: Executor = db(),
  now = new Date(),
) {
  if (!phone || !whatsappEnabled()) return null
  const to = toE164(phone)
  if (!to || !(await isOptedIn(to, executor))) return null
  const template = WHATSAPP_TEMPLATES[name]
  const values = parameters.map(templateParameter)
  if (values.length !== template.parameters.length) throw new Error(`${name} takes ${template.parameters.length} parameters, not ${values.length}`)
  return enqueueWhatsApp({ to, title: template.title, text: renderTemplate(name, values), template: { name, parameters: values } }, executor, now)
}
