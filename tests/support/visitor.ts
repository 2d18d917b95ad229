let nextIp = 1

/** A documentation address of its own for each visitor: 203.0.113.1-254, then 198.18.1.0 onwards. */
function clientAddress(index: number) {
  return index < 255 ? `203.0.113.${index}` : `198.18.${(index >> 8) & 255}.${index & 255}`
}

/**
 * A browser without JavaScript, as far as the server can tell: it keeps cookies, posts forms with
 * the page's Origin and does not follow redirects (tests look at them). Each visitor has its own
 * client address (the server trusts X-Forwarded-For when started with TRUST_PROXY=true).
 */
export class Visitor {
  cookies = new Map<string, string>()
  readonly ip = clientAddress(nextIp++)

  constructor(private readonly baseUrl: string) {}

  async request(path: string, init: { method?: string; form?: Record<string, string> | URLSearchParams; multipart?: FormData; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { 'X-Forwarded-For': this.ip, ...init.headers }
    if (this.cookies.size) headers.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    let body: URLSearchParams | FormData | undefined
    if (init.form) {
      body = new URLSearchParams(init.form)
      headers['Content-Type'] = 'application/x-www-form-urlencoded'
      headers.Origin ??= new URL(this.baseUrl).origin
    } else if (init.multipart) {
      body = init.multipart
      headers.Origin ??= new URL(this.baseUrl).origin
    }
    const url = path.startsWith('http') ? path : `${this.baseUrl}${path}`
    const response = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';')
      const [name, ...rest] = pair!.split('=')
      const value = rest.join('=')
      if (/Max-Age=0/i.test(cookie) || value === '') this.cookies.delete(name!)
      else this.cookies.set(name!, value)
    }
    const bytes = new Uint8Array(await response.arrayBuffer())
    return { status: response.status, location: response.headers.get('Location'), headers: response.headers, setCookies: response.headers.getSetCookie(), bytes, html: new TextDecoder().decode(bytes) }
  }

  get = (path: string) => this.request(path)
  post = (path: string, form: Record<string, string> | URLSearchParams, headers?: Record<string, string>) => this.request(path, { form, headers })
  upload = (path: string, multipart: FormData) => this.request(path, { multipart })
}

/** The visible text of a page, tags removed and entities of apostrophes and ampersands decoded. */
export const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replaceAll('&#x27;', "'").replaceAll('&amp;', '&').replace(/\s+/g, ' ')

/** HTML as the browser reads an attribute's value: the entities the pages write decoded (links keep their `&`). */
export const decodeHtml = (html: string) => html.replaceAll('&quot;', '"').replaceAll('&#x27;', "'").replaceAll('&amp;', '&')

/** A complete registration form, as a person fills it in. */
export const registrationForm = (overrides: Record<string, string> = {}) => ({
  name: 'Asha Rao',
  email: 'asha@example.com',
  password: 'butterfly-2027',
  phone: '9845012345',
  age: '26',
  currentLocation: 'Bengaluru',
  gender: 'female',
  swimmingExperience: 'advanced',
  academyName: 'NA',
  coachName: 'NA',
  specialization: 'butterfly',
  otherSpecialization: '',
  participateInEvents: 'yes',
  strokeBestTime: '',
  howDidYouKnow: 'google',
  otherSource: '',
  website_url: '',
  ...overrides,
})

/** A number written in letters, for a name made up per test (names carry no digits): 1 is "A", 27 is "AA". */
export function lettersFor(number: number) {
  let letters = ''
  for (let rest = number; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters
  return letters
}

/** Registers through the pages and verifies with the code from the e-mail (delivered over SMTP to `sink`). */
export async function signUp(visitor: Visitor, sink: { waitForMailTo(to: string, match?: RegExp): Promise<{ text: string }> }, { email, name }: { email: string; name: string }) {
  const registered = await visitor.post('/registration', registrationForm({ email, name }))
  if (registered.status !== 302) throw new Error(`registration failed with ${registered.status}`)
  const mail = await sink.waitForMailTo(email, /verification code/)
  const code = /^\s+(\d{6})\r?$/m.exec(mail.text)?.[1]
  if (!code) throw new Error('no code in the verification e-mail')
  const verified = await visitor.post(`/verify-email?${new URLSearchParams({ email })}`, { email, code, website_url: '' })
  if (verified.location !== '/book-slot') throw new Error(`verification did not sign in (${verified.status} ${verified.location})`)
  return visitor
}

let caughtUpChecks = 0

/**
 * Resolves once the site has sent every e-mail it had queued when this was called: someone new
 * registers, and the code the site e-mails them is queued after those messages and sent after them
 * (its outbox sends in the order queued). An e-mail missing then was never queued.
 */
export async function mailCaughtUp(siteUrl: string, sink: { waitForMailTo(to: string, match?: RegExp): Promise<unknown> }) {
  caughtUpChecks += 1
  const email = `outbox-check-${caughtUpChecks}-${process.pid}@example.com`
  const registered = await new Visitor(siteUrl).post('/registration', registrationForm({ email, name: 'Outbox Check' }))
  if (registered.status !== 302) throw new Error(`registration failed with ${registered.status}`)
  await sink.waitForMailTo(email, /verification code/)
}

/** A group of choices (a <fieldset> with its <legend>) in `html`, and the error message it is described by. */
export function groupState(html: string, legend: string) {
  const tag = new RegExp(`<fieldset([^>]*)><legend[^>]*>${legend.replace(/[?.()]/g, '\\$&')}</legend>`).exec(html)
  if (!tag) throw new Error(`no group ${legend}`)
  const errorId = /aria-describedby="([^"]+)"/.exec(tag[1]!)?.[1]
  const message = errorId ? new RegExp(`id="${errorId}"[^>]*>([^<]*)<`).exec(html)?.[1] : undefined
  return { invalid: Boolean(message), message: message?.replaceAll('&#x27;', "'") }
}

/** The <input> named `name` in `html`, its error message, and how they are tied together. */
export function fieldState(html: string, name: string) {
  const tag = new RegExp(`<(?:input|select)[^>]*name="${name}"[^>]*>`).exec(html)?.[0]
  if (!tag) throw new Error(`no field ${name}`)
  const describedBy = /aria-describedby="([^"]+)"/.exec(tag)?.[1]?.split(' ') ?? []
  const invalid = /aria-invalid="true"/.test(tag)
  const errorId = describedBy.find((id) => id.endsWith('-error'))
  const message = errorId ? new RegExp(`id="${errorId}"[^>]*>([^<]*)<`).exec(html)?.[1] : undefined
  return { invalid, message: message?.replaceAll('&#x27;', "'") }
}


/** A swimmer form as the add and edit pages send it. */
export const swimmerForm = (overrides: Record<string, string> = {}) => ({
  name: 'Dev Menon',
  age: '10',
  birthDate: '',
  gender: 'male',
  swimmingExperience: 'beginner',
  academyName: 'NA',
  coachName: 'NA',
  specialization: 'freestyle',
  otherSpecialization: '',
  participateInEvents: 'no',
  strokeBestTime: '',
  ...overrides,
})
