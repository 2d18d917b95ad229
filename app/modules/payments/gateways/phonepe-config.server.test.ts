import { describe, expect, it } from 'vitest'
import { phonePeConfigProblems, PhonePeEnvSchema } from '~/config/phonepe-env.server'
import { phonePeOptionsFrom } from './phonepe-config.server'

const complete = {
  PAYMENT_GATEWAY: 'phonepe',
  PHONEPE_CLIENT_ID: 'SWIMLAB_CLIENT',
  PHONEPE_CLIENT_SECRET: 'client-secret',
  PHONEPE_WEBHOOK_USERNAME: 'swimlab_hooks',
  PHONEPE_WEBHOOK_PASSWORD: 'hook-password-42',
}

const silent = { info() {}, warn() {}, error() {} }

describe('PhonePe configuration', () => {
  it('asks for nothing unless PhonePe is the gateway', () => {
    expect(phonePeConfigProblems({})).toEqual([])
    expect(phonePeConfigProblems({ PAYMENT_GATEWAY: 'sandbox', PHONEPE_ENV: 'nonsense' })).toEqual([])
  })

  it('names every missing credential when PhonePe is the gateway', () => {
    expect(phonePeConfigProblems({ PAYMENT_GATEWAY: 'phonepe', PHONEPE_CLIENT_SECRET: '' })).toEqual([
      { path: 'PHONEPE_CLIENT_ID', message: 'required when PAYMENT_GATEWAY=phonepe' },
      { path: 'PHONEPE_CLIENT_SECRET', message: 'required when PAYMENT_GATEWAY=phonepe' },
      { path: 'PHONEPE_WEBHOOK_USERNAME', message: 'required when PAYMENT_GATEWAY=phonepe' },
      { path: 'PHONEPE_WEBHOOK_PASSWORD', message: 'required when PAYMENT_GATEWAY=phonepe' },
    ])
    expect(phonePeConfigProblems(complete)).toEqual([])
  })

  it('names a wrong client version, environment or base URL', () => {
    const problems = phonePeConfigProblems({
      ...complete,
      PHONEPE_CLIENT_VERSION: '1.5',
      PHONEPE_ENV: 'live',
      PHONEPE_AUTH_BASE_URL: 'not a url',
    })
    expect(problems.map((problem) => problem.path)).toEqual(['PHONEPE_CLIENT_VERSION', 'PHONEPE_ENV', 'PHONEPE_AUTH_BASE_URL'])
    expect(
      phonePeConfigProblems({ ...complete, PHONEPE_ENV: 'production', PHONEPE_PG_BASE_URL: 'http://api.phonepe.com/apis/pg' }),
    ).toEqual([{ path: 'PHONEPE_PG_BASE_URL', message: 'must use https when PHONEPE_ENV=production' }])
  })

  it('defaults to the sandbox and client version 1, and turns the variables into adapter options', () => {
    const env = PhonePeEnvSchema.parse(complete)
    expect(env).toMatchObject({ PHONEPE_ENV: 'sandbox', PHONEPE_CLIENT_VERSION: 1 })
    expect(phonePeOptionsFrom(env, silent)).toEqual({
      clientId: 'SWIMLAB_CLIENT',
      clientSecret: 'client-secret',
      clientVersion: 1,
      env: 'sandbox',
      webhookUsername: 'swimlab_hooks',
      webhookPassword: 'hook-password-42',
      logger: silent,
    })

    const overridden = PhonePeEnvSchema.parse({
      ...complete,
      PHONEPE_ENV: 'production',
      PHONEPE_CLIENT_VERSION: '3',
      PHONEPE_PG_BASE_URL: 'https://pg.example.test/apis/pg',
    })
    expect(phonePeOptionsFrom(overridden, silent)).toMatchObject({ env: 'production', clientVersion: 3, pgBaseUrl: 'https://pg.example.test/apis/pg' })
  })

  it('rejects a malformed variable at parse time', () => {
    expect(PhonePeEnvSchema.safeParse({ PHONEPE_CLIENT_VERSION: '0' }).success).toBe(false)
    expect(PhonePeEnvSchema.safeParse({ PHONEPE_ENV: 'staging' }).success).toBe(false)
    expect(PhonePeEnvSchema.safeParse({ PHONEPE_AUTH_BASE_URL: 'nope' }).success).toBe(false)
  })

  it('refuses to build options without the credentials', () => {
    expect(() => phonePeOptionsFrom(PhonePeEnvSchema.parse({ PHONEPE_CLIENT_ID: 'x' }), silent)).toThrow(/PHONEPE_CLIENT_SECRET/)
  })
})
