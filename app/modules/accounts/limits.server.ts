import type { RateLimitRule } from '~/modules/rate-limit/rate-limit.server'

const minutes = (n: number) => n * 60

/**
 * How often one IP address, and one account (keyed by the e-mail address typed, whether or not it
 * is registered, so the limit reveals nothing), may try each sensitive action.
 */
export const LIMITS = {
  signInPerIp: { limit: 30, windowSeconds: minutes(15) },
  signInPerAccount: { limit: 10, windowSeconds: minutes(15) },
  codeEntryPerIp: { limit: 30, windowSeconds: minutes(15) },
  codeEntryPerAccount: { limit: 10, windowSeconds: minutes(15) },
  codeSendingPerIp: { limit: 20, windowSeconds: minutes(60) },
  codeSendingPerAccount: { limit: 5, windowSeconds: minutes(60) },
} satisfies Record<string, RateLimitRule>

export function limitsFor(action: 'signIn' | 'codeEntry' | 'codeSending', { ip, email }: { ip: string; email: string }) {
  return [
    { key: `${action}:ip:${ip}`, rule: LIMITS[`${action}PerIp`] },
    { key: `${action}:account:${email}`, rule: LIMITS[`${action}PerAccount`] },
  ]
}
