import { and, asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { useWhatsAppOn } from '../../../tests/support/whatsapp-on'
import { db } from '~/db/client.server'
import { oneTimeCodes, outboxMessages, users } from '~/db/schema'
import { addMinutes } from '~/lib/lab-time'
import { updateProfile } from '~/modules/privacy/account-deletion.server'
import { RateLimitedError } from '~/modules/rate-limit/rate-limit.server'
import { accountWhatsApp, switchAccountWhatsApp, UNPROVEN_STATE } from '~/modules/whatsapp/account.server'
import { isOptedIn, optInToWhatsApp, optOutOfWhatsApp, whatsappConsentOf } from '~/modules/whatsapp/consent.server'
import { createCustomers } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { CODE_REFUSED, MAX_CODE_ATTEMPTS } from './codes.server'
import { proveNumber, sendNumberCode } from './phone-proof.server'

useTestDatabase()

useWhatsAppOn()

// The factory's customers all have +919845012345; each test gives its own account its own number.
const NUMBER = '+919845012345'
let ips = 0
const ip = () => `203.0.113.${(ips += 1)}`

async function account(phone = NUMBER, prefix = 'proof') {
  const [customer] = await createCustomers(1, prefix)
  await db().update(users).set({ phone }).where(eq(users.id, customer!.userId!))
  return customer!.userId!
}

/** The codes sent on WhatsApp to a number, as the phone reads them. */
async function codesSentTo(phone: string) {
  const rows = await db().select({ template: outboxMessages.templateName, parameters: outboxMessages.templateParams }).from(outboxMessages).where(eq(outboxMessages.to, phone)).orderBy(asc(outboxMessages.id))
  return rows.filter((row) => row.template === 'verification_code').map((row) => row.parameters![0]!)
}

const provenAt = async (accountId: number) => (await db().select({ at: users.phoneVerifiedAt }).from(users).where(eq(users.id, accountId)))[0]!.at

describe("proving an account's number", () => {
  it('sends a six-digit code to the number in the Authentication template, kept only hashed, for that number', async () => {
    const holder = await account()
    expect(await sendNumberCode({ accountId: holder, ip: ip() })).toBe(true)
    const [code] = await codesSentTo(NUMBER)
    expect(code).toMatch(/^\d{6}$/)
    const [stored] = await db().select().from(oneTimeCodes).where(and(eq(oneTimeCodes.userId, holder), eq(oneTimeCodes.purpose, 'verify_phone')))
    expect(stored).toMatchObject({ phone: NUMBER, usedAt: null, attempts: 0 })
    expect(stored!.codeHash).not.toContain(code)
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(30 * 60_000)
  })

  it('the code entered on the account proves the number and turns its messages on; it works once', async () => {
    const holder = await account()
    await sendNumberCode({ accountId: holder, ip: ip() })
    const [code] = await codesSentTo(NUMBER)
    await proveNumber({ accountId: holder, code: code!, ip: ip() })
    expect(await provenAt(holder)).not.toBeNull()
    expect(await whatsappConsentOf(NUMBER)).toMatchObject({ optedIn: true, optInSource: 'account' })
    await expect(proveNumber({ accountId: holder, code: code!, ip: ip() })).rejects.toThrow(CODE_REFUSED)
  })

  it(`a wrong code counts: after ${MAX_CODE_ATTEMPTS} wrong ones the right one is refused too; and a code ends after 30 minutes`, async () => {
    const holder = await account()
    await sendNumberCode({ accountId: holder, ip: ip() })
    const [code] = await codesSentTo(NUMBER)
    const wrong = code === '000000' ? '000001' : '000000'
    for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt += 1) await expect(proveNumber({ accountId: holder, code: wrong, ip: ip() })).rejects.toThrow(CODE_REFUSED)
    await expect(proveNumber({ accountId: holder, code: code!, ip: ip() })).rejects.toThrow(CODE_REFUSED)
    expect(await provenAt(holder)).toBeNull()

    const later = await account('+919845011111', 'later')
    const sentAt = new Date()
    await sendNumberCode({ accountId: later, ip: ip(), now: sentAt })
    const [late] = await codesSentTo('+919845011111')
    await expect(proveNumber({ accountId: later, code: late!, ip: ip(), now: addMinutes(sentAt, 31) })).rejects.toThrow(CODE_REFUSED)
    expect(await isOptedIn('+919845011111')).toBe(false)
  })

  it('proves only the number it was sent to: another number on the account is unproven, and the old code proves nothing', async () => {
    const holder = await account()
    await sendNumberCode({ accountId: holder, ip: ip() })
    const [first] = await codesSentTo(NUMBER)
    await proveNumber({ accountId: holder, code: first!, ip: ip() })
    // Saving the same number keeps the proof; another number loses it.
    await updateProfile(holder, { name: 'Proof Holder', phone: NUMBER, currentLocation: 'Bengaluru' })
    expect(await provenAt(holder)).not.toBeNull()
    await sendNumberCode({ accountId: holder, ip: ip() })
    expect(await codesSentTo(NUMBER)).toHaveLength(1)
    await updateProfile(holder, { name: 'Proof Holder', phone: '+919845022222', currentLocation: 'Bengaluru' })
    expect(await provenAt(holder)).toBeNull()

    await sendNumberCode({ accountId: holder, ip: ip() })
    const [second] = await codesSentTo('+919845022222')
    await updateProfile(holder, { name: 'Proof Holder', phone: '+919845033333', currentLocation: 'Bengaluru' })
    await expect(proveNumber({ accountId: holder, code: second!, ip: ip() })).rejects.toThrow(CODE_REFUSED)
    expect(await provenAt(holder)).toBeNull()
    expect(await isOptedIn('+919845022222')).toBe(false)
    expect(await isOptedIn('+919845033333')).toBe(false)
  })

  it('is send-limited: a few codes a day to one number, whichever accounts type it', async () => {
    const accounts = [await account(NUMBER, 'first'), await account(NUMBER, 'second')]
    for (const holder of [...accounts, accounts[0]!]) await sendNumberCode({ accountId: holder, ip: ip() })
    await expect(sendNumberCode({ accountId: accounts[1]!, ip: ip() })).rejects.toThrow(RateLimitedError)
    expect(await codesSentTo(NUMBER)).toHaveLength(3)
  })

  it('sends nothing to a number that replied STOP: its owner replies START first', async () => {
    const holder = await account()
    await optOutOfWhatsApp({ phone: NUMBER, source: 'reply' })
    expect(await sendNumberCode({ accountId: holder, ip: ip() })).toBe(true)
    expect(await codesSentTo(NUMBER)).toEqual([])
  })
})

describe('the account page, for a number not proven', () => {
  it('shows nothing of the number’s consent and cannot turn it on or off; once proven it can', async () => {
    // The number's owner opted in elsewhere; an account typed the same number.
    await optInToWhatsApp({ phone: NUMBER, source: 'reply' })
    const stranger = await account()
    expect(await accountWhatsApp(stranger)).toMatchObject({ phone: '+91 98450 12345', proven: false, on: false, state: UNPROVEN_STATE })
    expect(await switchAccountWhatsApp(stranger, false)).toBe(false)
    expect(await isOptedIn(NUMBER)).toBe(true)

    const owner = await account('+919845044444', 'owner')
    await sendNumberCode({ accountId: owner, ip: ip() })
    const [code] = await codesSentTo('+919845044444')
    await proveNumber({ accountId: owner, code: code!, ip: ip() })
    expect(await accountWhatsApp(owner)).toMatchObject({ proven: true, on: true, state: expect.stringMatching(/^on \(since /) })
    expect(await switchAccountWhatsApp(owner, false)).toBe(true)
    expect(await isOptedIn('+919845044444')).toBe(false)
  })
})
