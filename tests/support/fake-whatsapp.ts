import { createHmac, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { WHATSAPP_TEMPLATE_LANGUAGE, WHATSAPP_TEMPLATES } from '~/modules/whatsapp/templates'
import { eventually } from './eventually'

/**
 * A stand-in for Meta's WhatsApp Business Cloud API on a loopback port: POST
 * /<version>/<phone number id>/messages with a bearer token, answering as the Graph API does
 * (`{ messages: [{ id: "wamid…" }] }`, or `{ error: { message, type, code, error_data, fbtrace_id } }`),
 * and the webhooks Meta sends (signed with the app secret in X-Hub-Signature-256). It knows the
 * templates the site registers; tests steer it (pause or remove a template, unregister a number,
 * rate-limit, take it down) and read what it accepted. It is a double of Meta, not of our code.
 */

export const FAKE_WHATSAPP_VERSION = 'v23.0'

/** A message the fake took, as a phone would receive it. */
export type FakeWhatsAppMessage = {
  wamid: string
  /** Digits, without "+", as sent in the request. */
  to: string
  type: 'template' | 'text'
  template: string | null
  language: string | null
  parameters: string[]
  text: string | null
}

export type FakeWhatsAppRequest = { method: string; path: string; status: number | 'refused'; code: number | null }

type GraphReply = { status: number; body: unknown }

export type FakeWhatsAppOptions = { accessToken?: string; phoneNumberId?: string; appSecret?: string; verifyToken?: string }

export type WebhookSignature = 'valid' | 'missing' | 'forged' | { exactly: string }

export async function startFakeWhatsApp(options: FakeWhatsAppOptions = {}) {
  const fake = new FakeWhatsApp(options)
  await fake.listen()
  return fake
}

export class FakeWhatsApp {
  readonly accessToken: string
  readonly phoneNumberId: string
  readonly appSecret: string
  readonly verifyToken: string
  /** Every message accepted, in order. */
  readonly sent: FakeWhatsAppMessage[] = []
  readonly requests: FakeWhatsAppRequest[] = []
  private readonly pausedTemplates = new Set<string>()
  private readonly removedTemplates = new Set<string>()
  private readonly unregistered = new Set<string>()
  private rateLimited = 0
  /** Numbers that wrote to the site only to see it catch up (`siteCaughtUp`). */
  private catchUpWriters = 0
  private down: 'no' | 'http-503' | 'refusing' = 'no'
  /** Whether a request arriving on a connection kept alive after an earlier answer finds it closed. */
  private closingReusedConnections = false
  /** Connections that carried an answer already. */
  private readonly answeredOn = new WeakSet<Socket>()
  private readonly server: Server
  private readonly sockets = new Set<Socket>()
  private port = 0

  constructor(options: FakeWhatsAppOptions = {}) {
    this.accessToken = options.accessToken ?? `EAAG-fake-token-${randomBytes(12).toString('hex')}`
    this.phoneNumberId = options.phoneNumberId ?? '123456789012345'
    this.appSecret = options.appSecret ?? `fake-app-secret-${randomBytes(8).toString('hex')}`
    this.verifyToken = options.verifyToken ?? `fake-verify-token-${randomBytes(8).toString('hex')}`
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) reply(response, graphError(500, 1, `Fake crashed: ${String(error)}`))
      })
    })
    this.server.on('connection', (socket) => {
      this.sockets.add(socket)
      socket.once('close', () => this.sockets.delete(socket))
    })
  }

  async listen() {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen(this.port, '127.0.0.1', () => {
        this.server.off('error', reject)
        resolve()
      })
    })
    this.port = (this.server.address() as AddressInfo).port
  }

  /** WHATSAPP_API_URL for the site: the fake's address with the Graph API version. */
  get apiUrl() {
    return `http://127.0.0.1:${this.port}/${FAKE_WHATSAPP_VERSION}`
  }

  /** The site's WhatsApp settings pointing at this fake, for loadConfig or startTestServer. */
  get env() {
    return {
      WHATSAPP_ACCESS_TOKEN: this.accessToken,
      WHATSAPP_PHONE_NUMBER_ID: this.phoneNumberId,
      WHATSAPP_APP_SECRET: this.appSecret,
      WHATSAPP_VERIFY_TOKEN: this.verifyToken,
      WHATSAPP_API_URL: this.apiUrl,
    }
  }

  async close() {
    if (this.down === 'refusing') return
    for (const socket of this.sockets) socket.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  // ---- steering ----

  /** Back to a fresh fake: up, every template registered, every number on WhatsApp, nothing sent. */
  async reset() {
    await this.comeBack()
    this.sent.length = 0
    this.requests.length = 0
    this.pausedTemplates.clear()
    this.removedTemplates.clear()
    this.unregistered.clear()
    this.rateLimited = 0
    this.closingReusedConnections = false
  }

  /** The template stays registered but Meta has paused it (quality): sends are refused with 132015. */
  pauseTemplate(name: string) {
    this.pausedTemplates.add(name)
  }

  /** The template no longer exists in WhatsApp Manager: 132001. */
  removeTemplate(name: string) {
    this.removedTemplates.add(name)
  }

  /** A paused or removed template is back as registered. */
  restoreTemplate(name: string) {
    this.pausedTemplates.delete(name)
    this.removedTemplates.delete(name)
  }

  /** Messages to this number (E.164 or digits) are refused with 131026: not a WhatsApp user. */
  markUnregistered(phone: string) {
    this.unregistered.add(phone.replace(/^\+/, ''))
  }

  /** The next `count` sends are refused with 130429 (throughput limit reached). */
  rateLimit(count = 1) {
    this.rateLimited = count
  }

  /**
   * From now on a connection kept alive after an answer is closed when the next request arrives on
   * it, unread: as when Meta closes an idle connection just as the site sends on it. The sender sees
   * the connection reset; the message never reached WhatsApp.
   */
  closeReusedConnections() {
    this.closingReusedConnections = true
  }

  /**
   * The API is down: every request is answered 503 (`http-503`), or the port stops listening and
   * connections are refused (`refusing`), until `comeBack`.
   */
  async goDown(how: 'http-503' | 'refusing' = 'http-503') {
    if (this.down === 'refusing') return
    this.down = how
    if (how === 'refusing') {
      for (const socket of this.sockets) socket.destroy()
      await new Promise<void>((resolve) => this.server.close(() => resolve()))
    }
  }

  async comeBack() {
    const was = this.down
    this.down = 'no'
    if (was === 'refusing') await this.listen()
  }

  /** The messages accepted for a number (E.164 or digits). */
  sentTo(phone: string) {
    const digits = phone.replace(/^\+/, '')
    return this.sent.filter((message) => message.to === digits)
  }

  // ---- webhooks, as Meta sends them ----

  /** A notification of delivery statuses of messages the fake took. */
  statusNotification(
    statuses: Array<{ wamid: string; status: 'sent' | 'delivered' | 'read' | 'failed'; errors?: Array<{ code: number; title: string; message?: string; details?: string }> }>,
    at = new Date(),
  ) {
    return this.notification({
      statuses: statuses.map(({ wamid, status, errors }) => ({
        id: wamid,
        status,
        timestamp: String(Math.floor(at.getTime() / 1000)),
        recipient_id: this.sent.find((message) => message.wamid === wamid)?.to ?? '919845012345',
        ...(status === 'failed'
          ? { errors: (errors ?? [{ code: 131026, title: 'Message undeliverable' }]).map(({ code, title, message, details }) => ({ code, title, message: message ?? title, error_data: { details: details ?? title } })) }
          : { conversation: { id: `conv-${wamid.slice(-8)}`, origin: { type: 'utility' } }, pricing: { billable: true, pricing_model: 'PMP', category: 'utility' } }),
      })),
    })
  }

  /**
   * Resolves once the site has sent every WhatsApp message it had queued when this was called:
   * someone new writes to the lab, and the site's one reply to them is queued after those messages
   * and sent after them (its worker sends in the order queued). A message missing then was never queued.
   */
  async siteCaughtUp(webhook: string) {
    this.catchUpWriters += 1
    const writer = `+4479110${String(this.catchUpWriters).padStart(5, '0')}`
    const answer = await this.deliver(webhook, this.incomingNotification({ from: writer, text: 'Is anyone there?' }))
    if (answer.status !== 200) throw new Error(`The site answered ${answer.status} to a notification`)
    await eventually(() => this.sentTo(writer), (messages) => messages.length > 0)
  }

  /** A notification of a message someone wrote to the lab's number. */
  incomingNotification({ from, text, id = `wamid.${randomBytes(18).toString('base64url')}`, at = new Date(), type = 'text' }: { from: string; text?: string; id?: string; at?: Date; type?: string }) {
    const digits = from.replace(/^\+/, '')
    return this.notification({
      contacts: [{ profile: { name: 'A Parent' }, wa_id: digits }],
      messages: [{ from: digits, id, timestamp: String(Math.floor(at.getTime() / 1000)), type, ...(type === 'text' ? { text: { body: text ?? '' } } : {}) }],
    })
  }

  private notification(value: Record<string, unknown>) {
    return {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550783881', phone_number_id: this.phoneNumberId }, ...value } }],
        },
      ],
    }
  }

  /** The X-Hub-Signature-256 header Meta sends with this body. */
  signature(body: string | Buffer) {
    return `sha256=${createHmac('sha256', this.appSecret).update(body).digest('hex')}`
  }

  /**
   * POSTs a notification to the site's webhook as Meta does: the JSON exactly as signed. `signature`
   * picks a correct header, none, one made with another secret, or exact text; `tamper` changes the
   * body after signing it.
   */
  async deliver(url: string, payload: unknown, { signature = 'valid', tamper }: { signature?: WebhookSignature; tamper?: (body: string) => string } = {}) {
    const body = JSON.stringify(payload)
    // Each notification on a connection of its own: a connection kept alive since an earlier one may
    // be closed by the site's server (idle for its keep-alive timeout) just as this one goes out on it.
    // Meta would deliver the notification again later; a test would fail.
    const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': 'facebookexternalua', Connection: 'close' }
    if (signature === 'valid') headers['X-Hub-Signature-256'] = this.signature(body)
    else if (signature === 'forged') headers['X-Hub-Signature-256'] = `sha256=${createHmac('sha256', 'not-the-app-secret').update(body).digest('hex')}`
    else if (signature !== 'missing') headers['X-Hub-Signature-256'] = signature.exactly
    const response = await fetch(url, { method: 'POST', headers, body: tamper ? tamper(body) : body, signal: AbortSignal.timeout(10_000) })
    return { status: response.status, text: await response.text() }
  }

  // ---- the Graph API ----

  private async handle(request: IncomingMessage, response: ServerResponse) {
    if (this.closingReusedConnections && this.answeredOn.has(request.socket)) {
      request.socket.destroy()
      return
    }
    const body = await readBody(request)
    const path = new URL(request.url ?? '/', 'http://fake').pathname
    const record: FakeWhatsAppRequest = { method: request.method ?? 'GET', path, status: 404, code: null }
    this.requests.push(record)
    const answer = this.answer(request, path, body)
    record.status = answer.status
    record.code = ((answer.body as { error?: { code?: number } }).error?.code ?? null) as number | null
    reply(response, answer)
    this.answeredOn.add(request.socket)
  }

  private answer(request: IncomingMessage, path: string, rawBody: Buffer): GraphReply {
    if (this.down === 'http-503') return graphError(503, 2, 'Service temporarily unavailable', 'OAuthException')
    const route = /^\/(v\d+\.\d+)\/([^/]+)\/messages$/.exec(path)
    if (!route || request.method !== 'POST') return graphError(400, 100, `Unknown path components: ${path}`, 'OAuthException')
    if (request.headers.authorization !== `Bearer ${this.accessToken}`) {
      return graphError(401, 190, 'Error validating access token: The session is invalid because the user logged out.', 'OAuthException')
    }
    if (route[2] !== this.phoneNumberId) return graphError(400, 100, `Unsupported post request. Object with ID '${route[2]}' does not exist`, 'GraphMethodException')
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) return graphError(400, 100, 'Invalid parameter', 'OAuthException', 'Expected a JSON body')
    let message: Record<string, unknown>
    try {
      message = JSON.parse(rawBody.toString('utf8')) as Record<string, unknown>
    } catch {
      return graphError(400, 100, 'Invalid parameter', 'OAuthException', 'The request body is not JSON')
    }
    if (message.messaging_product !== 'whatsapp') return graphError(400, 100, 'Invalid parameter', 'OAuthException', 'messaging_product must be whatsapp')
    if (message.recipient_type !== undefined && message.recipient_type !== 'individual') return graphError(400, 100, 'Invalid parameter', 'OAuthException', 'recipient_type must be individual')
    const to = message.to
    if (typeof to !== 'string' || !/^\d{8,15}$/.test(to)) return graphError(400, 100, 'Invalid parameter', 'OAuthException', 'to must be a phone number in international format, digits only')
    if (this.rateLimited > 0) {
      this.rateLimited -= 1
      return graphError(400, 130429, 'Rate limit hit', 'OAuthException', 'Cloud API message throughput has been reached.')
    }

    let accepted: Omit<FakeWhatsAppMessage, 'wamid'>
    if (message.type === 'template') {
      const checked = this.checkTemplate(message.template)
      if ('error' in checked) return checked.error
      accepted = { to, type: 'template', text: null, ...checked }
    } else if (message.type === 'text') {
      const text = (message.text as { body?: unknown } | undefined)?.body
      if (typeof text !== 'string' || !text.trim() || text.length > 4096) return graphError(400, 100, 'Invalid parameter', 'OAuthException', 'text.body must be 1 to 4096 characters')
      accepted = { to, type: 'text', template: null, language: null, parameters: [], text }
    } else {
      return graphError(400, 131051, 'Unsupported message type', 'OAuthException', `Message type ${String(message.type)} is not supported here`)
    }
    if (this.unregistered.has(to)) {
      return graphError(400, 131026, 'Message undeliverable', 'OAuthException', 'Unable to deliver message: the recipient is not a WhatsApp user or has not accepted the terms.')
    }
    const wamid = `wamid.${Buffer.from(`${to}-${randomBytes(12).toString('hex')}`).toString('base64url')}`
    this.sent.push({ wamid, ...accepted })
    return { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id: wamid, ...(accepted.type === 'template' ? { message_status: 'accepted' } : {}) }] } }
  }

  private checkTemplate(template: unknown): { template: string; language: string; parameters: string[] } | { error: GraphReply } {
    const fail = (code: number, message: string, details: string) => ({ error: graphError(400, code, message, 'OAuthException', details) })
    const { name, language, components } = (template ?? {}) as { name?: unknown; language?: { code?: unknown }; components?: unknown }
    if (typeof name !== 'string') return fail(100, 'Invalid parameter', 'template.name is required')
    const registered = (WHATSAPP_TEMPLATES as Record<string, { category?: string; parameters: readonly unknown[] }>)[name]
    if (!registered || this.removedTemplates.has(name) || language?.code !== WHATSAPP_TEMPLATE_LANGUAGE) {
      return fail(132001, 'Template name does not exist in the translation', `template name (${name}) does not exist in ${String(language?.code)}`)
    }
    if (this.pausedTemplates.has(name)) return fail(132015, 'Template is Paused', `Template ${name} is paused because of low quality`)
    const body = Array.isArray(components) ? (components as Array<{ type?: unknown; parameters?: unknown }>).find((component) => component.type === 'body') : undefined
    const parameters = Array.isArray(body?.parameters) ? (body.parameters as Array<{ type?: unknown; text?: unknown }>) : []
    if (parameters.length !== registered.parameters.length) {
      return fail(132000, 'Number of parameters does not match the expected number of params', `body: number of localizable_params (${parameters.length}) does not match the expected number of params (${registered.parameters.length})`)
    }
    for (const parameter of parameters) {
      if (parameter.type !== 'text' || typeof parameter.text !== 'string' || !parameter.text.trim() || /[\n\t]| {5,}/.test(parameter.text) || parameter.text.length > 1024) {
        return fail(100, 'Invalid parameter', 'Param text cannot be empty, have new-line/tab characters or more than 4 consecutive spaces')
      }
    }
    if (registered.category === 'Authentication') {
      // Meta's Authentication templates carry the code again in their copy-code button.
      const button = (components as Array<{ type?: unknown; sub_type?: unknown; parameters?: Array<{ text?: unknown }> }>).find((component) => component.type === 'button')
      if (button?.sub_type !== 'url' || button.parameters?.[0]?.text !== parameters[0]?.text) return fail(131008, 'Required parameter is missing', 'buttons: the copy-code button needs the code as its parameter')
    }
    return { template: name, language: WHATSAPP_TEMPLATE_LANGUAGE, parameters: parameters.map((parameter) => parameter.text as string) }
  }
}

function graphError(status: number, code: number, message: string, type = 'OAuthException', details?: string): GraphReply {
  return {
    status,
    body: { error: { message: `(#${code}) ${message}`, type, code, ...(details ? { error_data: { messaging_product: 'whatsapp', details } } : {}), fbtrace_id: `A${randomBytes(10).toString('base64url')}` } },
  }
}

function reply(response: ServerResponse, answer: GraphReply) {
  if (response.destroyed) return
  response.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body))
}

async function readBody(request: IncomingMessage) {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}
