import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.server'

describe('configuration', () => {
  it('needs nothing for the default run', () => {
    const config = loadConfig({})
    expect(config.PORT).toBe(3000)
    expect(config.SITE_URL).toBe('http://localhost:3000')
    expect(config.DATA_DIR).toBe(path.resolve('data'))
    expect(config.DATABASE_URL).toBeUndefined()
  })

  it('derives the site URL from the port and trims a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).SITE_URL).toBe('http://localhost:8080')
    expect(loadConfig({ SITE_URL: 'https://lab.example.in/', ALLOW_SANDBOX_PAYMENTS: 'true' }).SITE_URL).toBe('https://lab.example.in')
  })

  it('refuses the sandbox gateway on a public address, unless test payments are allowed there', () => {
    expect(() => loadConfig({ SITE_URL: 'https://lab.example.in' })).toThrow(/PAYMENT_GATEWAY: the sandbox gateway takes no real money/)
    expect(loadConfig({ SITE_URL: 'https://staging.lab.example.in', ALLOW_SANDBOX_PAYMENTS: 'true' }).PAYMENT_GATEWAY).toBe('sandbox')
    for (const local of ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://[::1]:3000', 'http://lab.localhost']) {
      expect(loadConfig({ SITE_URL: local }).PAYMENT_GATEWAY).toBe('sandbox')
    }
  })

  it('listens on this machine only unless told otherwise, and on every interface for a public site', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1')
    expect(loadConfig({ SITE_URL: 'http://localhost:3000' }).HOST).toBe('127.0.0.1')
    expect(loadConfig({ SITE_URL: 'https://lab.example.in', ALLOW_SANDBOX_PAYMENTS: 'true' }).HOST).toBe('0.0.0.0')
    expect(loadConfig({ SITE_URL: 'https://lab.example.in', ALLOW_SANDBOX_PAYMENTS: 'true', HOST: '10.0.0.5' }).HOST).toBe('10.0.0.5')
  })

  it('refuses the sandbox gateway where other machines can reach it, also without a SITE_URL, unless test payments are allowed', () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'lab.example.in']) {
      expect(() => loadConfig({ HOST: host }), host).toThrow(/HOST: the sandbox gateway takes no real money, and listening on this HOST lets other machines reach it/)
      expect(() => loadConfig({ HOST: host, SITE_URL: 'http://localhost:3000' }), host).toThrow(/HOST: the sandbox gateway/)
      expect(loadConfig({ HOST: host, ALLOW_SANDBOX_PAYMENTS: 'true' }).HOST).toBe(host)
    }
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) expect(loadConfig({ HOST: host }).PAYMENT_GATEWAY).toBe('sandbox')
  })

  it('PAYMENT_GATEWAY=phonepe needs its credentials, and names each one that is missing', () => {
    const live = { SITE_URL: 'https://lab.example.in', PAYMENT_GATEWAY: 'phonepe' }
    expect(() => loadConfig(live)).toThrow(/PHONEPE_CLIENT_ID: required when PAYMENT_GATEWAY=phonepe[^]*PHONEPE_WEBHOOK_PASSWORD: required/)
    const ready = loadConfig({
      ...live,
      PHONEPE_CLIENT_ID: 'M22',
      PHONEPE_CLIENT_SECRET: 's3cret',
      PHONEPE_WEBHOOK_USERNAME: 'lab',
      PHONEPE_WEBHOOK_PASSWORD: 'hook-pass',
      PHONEPE_ENV: 'production',
      PHONEPE_CHECKOUT_ORIGINS: 'https://mercury-t2.phonepe.com/, https://pay.example.in',
    })
    expect(ready).toMatchObject({ PAYMENT_GATEWAY: 'phonepe', PHONEPE_ENV: 'production', PHONEPE_CLIENT_VERSION: 1 })
    expect(ready.PHONEPE_CHECKOUT_ORIGINS).toEqual(['https://mercury-t2.phonepe.com', 'https://pay.example.in'])
    expect(() => loadConfig({ ...live, PHONEPE_CHECKOUT_ORIGINS: 'not a url' })).toThrow(/PHONEPE_CHECKOUT_ORIGINS/)
  })

  it('holds seats for 20 minutes unless told otherwise, between 5 and 120', () => {
    expect(loadConfig({}).SEAT_HOLD_MINUTES).toBe(20)
    expect(loadConfig({ SEAT_HOLD_MINUTES: '30' }).SEAT_HOLD_MINUTES).toBe(30)
    expect(() => loadConfig({ SEAT_HOLD_MINUTES: '2' })).toThrow(/SEAT_HOLD_MINUTES/)
  })

  it('runs one process unless told otherwise; more need PostgreSQL', () => {
    expect(loadConfig({}).WEB_CONCURRENCY).toBe(1)
    expect(loadConfig({ WEB_CONCURRENCY: '2', DATABASE_URL: 'postgres://localhost/lab' }).WEB_CONCURRENCY).toBe(2)
    expect(() => loadConfig({ WEB_CONCURRENCY: '2' })).toThrow(/WEB_CONCURRENCY: more than one worker needs PostgreSQL/)
    expect(() => loadConfig({ WEB_CONCURRENCY: '0', DATABASE_URL: 'postgres://localhost/lab' })).toThrow(/WEB_CONCURRENCY/)
  })

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).PORT).toBe(3000)
  })

  it('stops with a message naming every wrong value', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SITE_URL: 'not a url', TRUST_PROXY: 'maybe' })
    expect(attempt).toThrow(ConfigError)
    expect(attempt).toThrow(/PORT: must be a port number/)
    expect(attempt).toThrow(/DATABASE_URL: must start with postgres/)
    expect(attempt).toThrow(/SITE_URL: must be an absolute URL/)
    expect(attempt).toThrow(/TRUST_PROXY: must be false, the number of reverse proxies in front of the server/)
  })

  it('trusts X-Forwarded-For only from a number of proxies or from given addresses, never the whole chain', () => {
    const trust = (TRUST_PROXY?: string) => loadConfig(TRUST_PROXY === undefined ? {} : { TRUST_PROXY }).TRUST_PROXY
    expect(trust()).toBe(false)
    for (const off of ['false', 'no', '0']) expect(trust(off)).toBe(false)
    for (const one of ['true', 'TRUE', 'yes', '1']) expect(trust(one)).toBe(1)
    expect(trust('2')).toBe(2)
    expect(trust('loopback')).toEqual(['loopback'])
    expect(trust('10.0.0.1, 10.1.0.0/16,fd00::/8, ::1')).toEqual(['10.0.0.1', '10.1.0.0/16', 'fd00::/8', '::1'])
    for (const wrong of ['maybe', '11', '-1', '10.0.0.0/33', '::/129', '10.0.0', '10.0.0.1/8/8', 'proxy.example.com', '10.0.0.1,,10.0.0.2']) {
      expect(() => trust(wrong), wrong).toThrow(/TRUST_PROXY: must be false, the number of reverse proxies/)
    }
  })
})

describe('e-mail and account settings', () => {
  it('defaults to the local mailbox and the standard session cookie', () => {
    const config = loadConfig({})
    expect(config.SMTP_URL).toBeUndefined()
    expect(config.SESSION_COOKIE_NAME).toBe('swimlab_session')
    expect(config.MAIL_FROM).toContain('Swimming Sport Science Lab')
  })

  it('accepts an SMTP URL and rejects anything else', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://user:pass@smtp.example.com:465' }).SMTP_URL).toBe('smtps://user:pass@smtp.example.com:465')
    expect(() => loadConfig({ SMTP_URL: 'https://smtp.example.com' })).toThrow(/SMTP_URL: must start with smtp:\/\/ or smtps:\/\//)
  })

  it('needs ADMIN_EMAIL and ADMIN_PASSWORD together, with a staff password: 12 characters or more, not a common one', () => {
    expect(loadConfig({ ADMIN_EMAIL: 'staff@lab.example', ADMIN_PASSWORD: 'long-enough-now' }).ADMIN_EMAIL).toBe('staff@lab.example')
    expect(() => loadConfig({ ADMIN_EMAIL: 'staff@lab.example' })).toThrow(/ADMIN_PASSWORD: ADMIN_EMAIL and ADMIN_PASSWORD must be set together/)
    expect(() => loadConfig({ ADMIN_EMAIL: 'staff@lab.example', ADMIN_PASSWORD: 'eleven-char' })).toThrow(/ADMIN_PASSWORD: must be at least 12 characters/)
    expect(() => loadConfig({ ADMIN_EMAIL: 'staff@lab.example', ADMIN_PASSWORD: 'QWERTY123456' })).toThrow(/ADMIN_PASSWORD: is one of the most common passwords: choose another one/)
    expect(() => loadConfig({ ADMIN_EMAIL: 'not-an-address', ADMIN_PASSWORD: 'long-enough-now' })).toThrow(/ADMIN_EMAIL: must be an e-mail address/)
  })
})

describe('WhatsApp settings', () => {
  const all = {
    WHATSAPP_ACCESS_TOKEN: 'EAAGm0PX4ZCpsBAKZB0sample0token0from0meta',
    WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
    WHATSAPP_APP_SECRET: '0123456789abcdef0123456789abcdef',
    WHATSAPP_VERIFY_TOKEN: 'a-random-verify-token-of-ours',
  }

  it('leaves WhatsApp off with none of them, on with all four, Meta’s Graph API unless told otherwise', () => {
    const off = loadConfig({})
    expect(off.WHATSAPP_ACCESS_TOKEN).toBeUndefined()
    expect(off.WHATSAPP_API_URL).toBe('https://graph.facebook.com/v23.0')
    expect(loadConfig({ WHATSAPP_ACCESS_TOKEN: '', WHATSAPP_APP_SECRET: '' }).WHATSAPP_ACCESS_TOKEN).toBeUndefined()
    const on = loadConfig({ ...all, WHATSAPP_API_URL: 'http://127.0.0.1:4100/v23.0/' })
    expect(on).toMatchObject({ ...all, WHATSAPP_API_URL: 'http://127.0.0.1:4100/v23.0' })
  })

  it('some of them without the others: each missing one is named', () => {
    const { WHATSAPP_APP_SECRET: _secret, WHATSAPP_VERIFY_TOKEN: _token, ...half } = all
    let message = ''
    try {
      loadConfig(half)
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      message = (error as Error).message
    }
    expect(message).toMatch(/WHATSAPP_APP_SECRET: required with WHATSAPP_ACCESS_TOKEN, WHATSAPP_PHONE_NUMBER_ID: set all four WhatsApp settings, or none to leave WhatsApp off/)
    expect(message).toMatch(/WHATSAPP_VERIFY_TOKEN: required with/)
    expect(message).not.toMatch(/^\s*(?:WHATSAPP_ACCESS_TOKEN|WHATSAPP_PHONE_NUMBER_ID):/m)
    expect(() => loadConfig({ WHATSAPP_VERIFY_TOKEN: all.WHATSAPP_VERIFY_TOKEN })).toThrow(/WHATSAPP_ACCESS_TOKEN: required with WHATSAPP_VERIFY_TOKEN/)
  })

  it('refuses values that cannot be Meta’s', () => {
    expect(() => loadConfig({ ...all, WHATSAPP_PHONE_NUMBER_ID: '+91 98450 12345' })).toThrow(/WHATSAPP_PHONE_NUMBER_ID: must be the phone number id from Meta \(digits only, not the phone number\)/)
    expect(() => loadConfig({ ...all, WHATSAPP_ACCESS_TOKEN: 'short' })).toThrow(/WHATSAPP_ACCESS_TOKEN: must be the access token from Meta/)
    expect(() => loadConfig({ ...all, WHATSAPP_APP_SECRET: 'short' })).toThrow(/WHATSAPP_APP_SECRET: must be the app secret from Meta/)
    expect(() => loadConfig({ ...all, WHATSAPP_VERIFY_TOKEN: 'guessable' })).toThrow(/WHATSAPP_VERIFY_TOKEN: must be at least 16 characters/)
    expect(() => loadConfig({ ...all, WHATSAPP_API_URL: 'graph.facebook.com' })).toThrow(/WHATSAPP_API_URL: must be an absolute URL/)
  })
})
