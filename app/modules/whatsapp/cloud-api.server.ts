import type { DeliveryFailure, OutboxMessage, OutboxSender } from '~/modules/mail/outbox.server'
import type { WhatsAppSettings } from './config.server'
import { parametersToSend } from './links.server'
import { WHATSAPP_TEMPLATE_LANGUAGE, WHATSAPP_TEMPLATES, type WhatsAppTemplate } from './templates'

/**
 * Sends the outbox's WhatsApp messages through Meta's WhatsApp Business Cloud API: a template with
 * its parameters, or plain text for a reply to someone who wrote to the lab.
 */

/** Well under the outbox's claim lease: a stalled request frees the worker long before another instance may take the message. */
export const CLOUD_API_TIMEOUT_MS = 20_000

/**
 * A Graph API error answer, or no answer at all. `kind` says what the outbox does with the message;
 * the message (what staff read as the last error) keeps Meta's code and words.
 */
export class WhatsAppApiError extends Error {
  constructor(
    message: string,
    readonly kind: DeliveryFailure,
    readonly code: number | null = null,
    readonly httpStatus: number | null = null,
  ) {
    super(message)
    this.name = 'WhatsAppApiError'
  }
}

/**
 * Meta's error codes for a message that can never be delivered as it is: the number is not on
 * WhatsApp (131026), a parameter is invalid (100, 131008 required parameter missing, 131009
 * parameter value invalid, 132000 parameter count, 132001 template missing in this language,
 * 132005 translated text too long, 132007 template format policy, 132012 parameter format),
 * the recipient cannot be written to outside the 24-hour window (131047), the message type
 * (131051) or a sender equal to the recipient (131021).
 */
const PERMANENT_CODES = new Set([100, 131008, 131009, 131021, 131026, 131047, 131051, 132000, 132001, 132005, 132007, 132012])

/**
 * Codes that mean the service, not this message, is failing: an invalid or expired token (190, and
 * the permission codes 10 and 200 that a revoked one gives), the API temporarily unavailable (2),
 * WhatsApp's own "service unavailable" (131016).
 */
const DOWN_CODES = new Set([2, 10, 190, 200, 131016])

/**
 * What a Graph API error means for the outbox. Rate limits (4, 80007, 130429, 131056), a paused or
 * disabled template (132015, 132016), and anything unknown are retried after the message's back-off.
 */
export function failureOfGraphError(httpStatus: number, code: number | null): DeliveryFailure {
  if (code !== null && DOWN_CODES.has(code)) return 'down'
  if (httpStatus === 401 || httpStatus >= 500) return 'down'
  if (code !== null && PERMANENT_CODES.has(code)) return 'permanent'
  return 'retry'
}

type GraphError = { message?: unknown; type?: unknown; code?: unknown; error_subcode?: unknown; error_data?: { details?: unknown }; fbtrace_id?: unknown }

/**
 * The request body of a message, as the Cloud API documents it. An Authentication template's code
 * goes in its body and again in its "Copy code" button.
 */
export function messageBody(message: Pick<OutboxMessage, 'to' | 'text' | 'templateName' | 'templateParams'>) {
  const to = message.to.replace(/^\+/, '')
  if (message.templateName) {
    const parameters = (message.templateParams ?? []).map((text) => ({ type: 'text', text }))
    const template = (WHATSAPP_TEMPLATES as Record<string, WhatsAppTemplate>)[message.templateName]
    const button = template?.category === 'Authentication' ? [{ type: 'button', sub_type: 'url', index: '0', parameters: parameters.slice(0, 1) }] : []
    return {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      type: 'template',
      template: {
        name: message.templateName,
        language: { code: WHATSAPP_TEMPLATE_LANGUAGE },
        components: parameters.length > 0 ? [{ type: 'body', parameters }, ...button] : [],
      },
    }
  }
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { preview_url: false, body: message.text } }
}

export type CloudApiOptions = { timeoutMs?: number; fetch?: typeof fetch }

/** The outbox's WhatsApp sender, over `fetch` to `${apiUrl}/${phoneNumberId}/messages`. */
export function cloudApiSender(settings: WhatsAppSettings, options: CloudApiOptions = {}): OutboxSender {
  const timeoutMs = options.timeoutMs ?? CLOUD_API_TIMEOUT_MS
  const fetchImpl = options.fetch ?? fetch
  const endpoint = `${settings.apiUrl.replace(/\/+$/, '')}/${encodeURIComponent(settings.phoneNumberId)}/messages`
  return {
    channel: 'whatsapp',
    kind: 'cloud-api',
    classify: (error) => (error instanceof WhatsAppApiError ? error.kind : 'down'),
    async send(message) {
      // A private link in the message is made whole only now: the outbox keeps it without its key.
      const request = JSON.stringify(messageBody({ ...message, templateParams: message.privateLink ? await parametersToSend(message) : message.templateParams }))
      let response: Response
      let text: string
      try {
        response = await fetchImpl(endpoint, {
          method: 'POST',
          // Each message on a connection of its own. One kept alive between messages may have been
          // closed by the API while idle, unnoticed while this process was busy: the next message sent
          // on it is lost unread, and that reset, which cannot be told from one after WhatsApp took the
          // message, would count as an outage and hold back the whole batch.
          headers: { Authorization: `Bearer ${settings.accessToken}`, 'Content-Type': 'application/json', Connection: 'close' },
          body: request,
          signal: AbortSignal.timeout(timeoutMs),
        })
        text = await response.text()
      } catch (error) {
        const cause = (error as { cause?: { message?: unknown; code?: unknown } })?.cause
        const why = typeof cause?.message === 'string' && cause.message ? cause.message : typeof cause?.code === 'string' ? cause.code : null
        const reason = (error as Error)?.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : `${(error as Error)?.message ?? String(error)}${why ? `: ${why}` : ''}`
        throw new WhatsAppApiError(`WhatsApp Cloud API unreachable: ${reason}`, 'down')
      }
      const body = parseJson(text)
      if (!response.ok) {
        const error = (body?.error ?? null) as GraphError | null
        const code = typeof error?.code === 'number' ? error.code : null
        const details = typeof error?.error_data?.details === 'string' ? error.error_data.details : null
        const words = typeof error?.message === 'string' ? error.message : text.slice(0, 200) || response.statusText
        const trace = typeof error?.fbtrace_id === 'string' ? ` [fbtrace_id ${error.fbtrace_id}]` : ''
        throw new WhatsAppApiError(
          `WhatsApp error ${code ?? `HTTP ${response.status}`}: ${words}${details && details !== words ? ` (${details})` : ''}${trace}`,
          failureOfGraphError(response.status, code),
          code,
          response.status,
        )
      }
      // Taken: the id ties WhatsApp's delivery statuses to the message. An answer without one still
      // means the message went out; sending it again would send it twice.
      const messages = body?.messages
      const id = Array.isArray(messages) ? (messages[0] as { id?: unknown } | undefined)?.id : undefined
      return { providerMessageId: typeof id === 'string' && id ? id : null }
    },
    close() {},
  }
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}
