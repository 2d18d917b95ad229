import type { RateLimitRule } from './rate-limit.server'

const minutes = (n: number) => n * 60

/**
 * How often one IP address, and one account (keyed by the e-mail address typed, whether or not it
 * is registered, so the limit reveals nothing), may try each sensitive action.
 */
export const LIMITS = {
  signInPerIp: { limit: 30, windowSeconds: minutes(15) },
  signInPerAccount: { limit: 10, windowSeconds: minutes(15) },
  /** Instead of the account's limit, for a browser that has signed in to the account before. */
  signInPerKnownBrowser: { limit: 10, windowSeconds: minutes(15) },
  codeEntryPerIp: { limit: 30, windowSeconds: minutes(15) },
  codeEntryPerAccount: { limit: 10, windowSeconds: minutes(15) },
  codeSendingPerIp: { limit: 20, windowSeconds: minutes(60) },
  codeSendingPerAccount: { limit: 5, windowSeconds: minutes(60) },
  /** A minor asking their parent again: one link every few minutes, a handful a day, per swimmer. */
  consentRequestPerSwimmer: { limit: 1, windowSeconds: minutes(5) },
  consentRequestPerSwimmerDaily: { limit: 6, windowSeconds: minutes(24 * 60) },
  consentRequestPerIp: { limit: 20, windowSeconds: minutes(60) },
  /** Answers posted to parents' consent links, per client address (a token is not guessed, but posts are bounded). */
  consentAnswerPerIp: { limit: 30, windowSeconds: minutes(15) },
  /** Answers posted to testimonial links (agreeing, declining, withdrawing), per client address. */
  testimonialAnswerPerIp: { limit: 30, windowSeconds: minutes(15) },
  /** Codes sent on WhatsApp to one number, whichever accounts ask: typing someone's number into an account cannot flood them. */
  numberCodesPerNumber: { limit: 3, windowSeconds: minutes(24 * 60) },
  /** Asking to be told when the lab comes to a city (each an e-mail to the address typed): per client address, and per address typed. */
  cityAlertPerIp: { limit: 10, windowSeconds: minutes(60) },
  cityAlertPerAddress: { limit: 3, windowSeconds: minutes(60) },
  /** Confirming or stopping a city alert through its e-mailed link, per client address. */
  cityAlertAnswerPerIp: { limit: 30, windowSeconds: minutes(15) },
} satisfies Record<string, RateLimitRule>

export function limitsFor(action: Action, { ip, email }: { ip: string; email: string }) {
  return [ipLimit(action, ip), accountLimit(action, email)]
}

type Action = 'signIn' | 'codeEntry' | 'codeSending'

export function ipLimit(action: Action, ip: string) {
  return { key: `${action}:ip:${ip}`, rule: LIMITS[`${action}PerIp`] }
}

export function accountLimit(action: Action, email: string) {
  return { key: `${action}:account:${email}`, rule: LIMITS[`${action}PerAccount`] }
}

/**
 * Strangers can use up an account's sign-in limit on purpose; a browser the owner has signed in
 * with before is counted on its own instead, so they cannot lock the owner out of it.
 */
export function knownBrowserLimit(browserId: string) {
  return { key: `signIn:browser:${browserId}`, rule: LIMITS.signInPerKnownBrowser }
}

/** Sending a swimmer's parent a consent link again (each one an e-mail). */
export function consentRequestLimits(swimmerId: number, ip: string) {
  return [
    { key: `consentRequest:swimmer:${swimmerId}`, rule: LIMITS.consentRequestPerSwimmer },
    { key: `consentRequestDaily:swimmer:${swimmerId}`, rule: LIMITS.consentRequestPerSwimmerDaily },
    { key: `consentRequest:ip:${ip}`, rule: LIMITS.consentRequestPerIp },
  ]
}

/** Answering a parent's consent link from one client address. */
export function consentAnswerLimit(ip: string) {
  return { key: `consentAnswer:ip:${ip}`, rule: LIMITS.consentAnswerPerIp }
}

/** Answering a testimonial's link, or withdrawing one, from one client address. */
export function testimonialAnswerLimit(ip: string) {
  return { key: `testimonialAnswer:ip:${ip}`, rule: LIMITS.testimonialAnswerPerIp }
}

/** Sending a code on WhatsApp to a number, to prove it is the account holder's. */
export function numberCodeLimits({ ip, email, phone }: { ip: string; email: string; phone: string }) {
  return [...limitsFor('codeSending', { ip, email }), { key: `numberCode:number:${phone}`, rule: LIMITS.numberCodesPerNumber }]
}

/** The counter of city alerts asked for one address (also dropped when its account is erased). */
export function cityAlertAddressLimit(email: string) {
  return { key: `cityAlert:address:${email}`, rule: LIMITS.cityAlertPerAddress }
}

/** Asking for a city alert: from one client address, and for one e-mail address whoever asks. */
export function cityAlertLimits({ ip, email }: { ip: string; email: string }) {
  return [{ key: `cityAlert:ip:${ip}`, rule: LIMITS.cityAlertPerIp }, cityAlertAddressLimit(email)]
}

/** Confirming or stopping a city alert through its link, from one client address. */
export function cityAlertAnswerLimit(ip: string) {
  return { key: `cityAlertAnswer:ip:${ip}`, rule: LIMITS.cityAlertAnswerPerIp }
}
