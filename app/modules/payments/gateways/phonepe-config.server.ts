import { PHONEPE_REQUIRED, type PhonePeEnv } from '~/config/phonepe-env.server'
import type { PhonePeLogger } from './phonepe-api.server'
import type { PhonePeOptions } from './phonepe.server'

/** The adapter's options from the parsed environment; call only when phonePeConfigProblems found none. */
export function phonePeOptionsFrom(env: PhonePeEnv, logger: PhonePeLogger): PhonePeOptions {
  const { PHONEPE_CLIENT_ID, PHONEPE_CLIENT_SECRET, PHONEPE_WEBHOOK_USERNAME, PHONEPE_WEBHOOK_PASSWORD } = env
  if (!PHONEPE_CLIENT_ID || !PHONEPE_CLIENT_SECRET || !PHONEPE_WEBHOOK_USERNAME || !PHONEPE_WEBHOOK_PASSWORD) {
    const missing = PHONEPE_REQUIRED.filter((name) => !env[name])
    throw new Error(`PhonePe is not configured: ${missing.join(', ')} must be set`)
  }
  return {
    clientId: PHONEPE_CLIENT_ID,
    clientSecret: PHONEPE_CLIENT_SECRET,
    clientVersion: env.PHONEPE_CLIENT_VERSION,
    env: env.PHONEPE_ENV,
    webhookUsername: PHONEPE_WEBHOOK_USERNAME,
    webhookPassword: PHONEPE_WEBHOOK_PASSWORD,
    ...(env.PHONEPE_AUTH_BASE_URL ? { authBaseUrl: env.PHONEPE_AUTH_BASE_URL } : {}),
    ...(env.PHONEPE_PG_BASE_URL ? { pgBaseUrl: env.PHONEPE_PG_BASE_URL } : {}),
    ...(env.PHONEPE_CHECKOUT_ORIGINS?.length ? { checkoutOrigins: env.PHONEPE_CHECKOUT_ORIGINS } : {}),
    logger,
  }
}
