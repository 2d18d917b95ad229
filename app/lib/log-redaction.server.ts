/**
 * Query parameters that are bearer secrets: the keys of private links (bookings, receipts, report
 * files, waitlist offers, payment status), the key of an e-mailed confirmation to cancel or move a
 * guest's booking (`confirm`), a coach's token on the results' files (`share`), an analysis day's
 * host club's key, which books the seats kept for it before the public release (`host`), and the
 * codes of e-mailed verification and reset links. Whoever reads a log must not be able to open those links (nor a consent link, whose key is its path), nor WhatsApp's webhook verify token (`hub.verify_token`).
 */
const SECRET_PARAMETERS = 'key|code|token|share|confirm|host|hub\\.verify_token'

const REDACTED = '[redacted]'

/** In a URL as sent: `?key=…` or `&code=…`, up to the next parameter. */
const PLAIN = new RegExp(`([?&](?:${SECRET_PARAMETERS})=)[^&#\\s"'<>\\\\]*`, 'gi')
/** In a URL carried, encoded, inside another one (a sign-in's `redirectTo=%2Fbooking%2Fview%3Fref%3D…%26key%3D…`). */
const ENCODED = new RegExp(`((?:%3F|%26)(?:${SECRET_PARAMETERS})%3D)(?:(?!%26|%23)[^&#\\s"'<>\\\\])*`, 'gi')

/**
 * Links whose path is the key: a parent's consent link, /consent/<token>, and a coach's link to a
 * swimmer's results, /shared/<token>, as sent and encoded inside another address.
 */
const PRIVATE_PATH = /(\/(?:consent|shared)\/)[^/?&#\s"'<>\\]+/gi
const PRIVATE_PATH_ENCODED = /(%2F(?:consent|shared)%2F)(?:(?!%3F|%23|%2F)[^&#\s"'<>\\/?])+/gi

/** The text with the value of every secret query parameter, and every key in a link's path, replaced by "[redacted]". */
export function redactSecrets(text: string): string {
  return text.replace(PLAIN, `$1${REDACTED}`).replace(ENCODED, `$1${REDACTED}`).replace(PRIVATE_PATH, `$1${REDACTED}`).replace(PRIVATE_PATH_ENCODED, `$1${REDACTED}`)
}

/** The same for every text inside a value about to be logged (an error's message, stack, input…). */
export function redactSecretsIn<T>(value: T, seen = new WeakSet<object>()): T {
  if (typeof value === 'string') return redactSecrets(value) as T
  if (typeof value !== 'object' || value === null || seen.has(value)) return value
  seen.add(value)
  if (Array.isArray(value)) return value.map((item) => redactSecretsIn(item, seen)) as T
  // Dates, buffers and the like hold no URL and log as they are.
  if (Object.prototype.toString.call(value) !== '[object Object]') return value
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, redactSecretsIn(item, seen)])) as T
}
