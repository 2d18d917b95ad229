import { asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { useWhatsAppOn } from '../../../tests/support/whatsapp-on'
import { db } from '~/db/client.server'
import { outboxMessages } from '~/db/schema'
import { addHours } from '~/lib/lab-time'
import { useTestDatabase } from '../../../tests/support/test-database'
import { isOptedIn, optInToWhatsApp, optOutOfWhatsApp, requestWhatsAppMessages, WHATSAPP_OPT_IN_WORDING, whatsappConsentOf } from './consent.server'

useTestDatabase()

useWhatsAppOn()

const NUMBER = '+919845012345'
const NOW = new Date('2030-03-04T04:00:00Z')
const sentTo = async (to: string) =>
  (await db().select({ template: outboxMessages.templateName }).from(outboxMessages).where(eq(outboxMessages.to, to)).orderBy(asc(outboxMessages.id))).map((row) => row.template)

describe("a form's WhatsApp box", () => {
  it('does not opt a number in: its owner is asked to reply START, once a day however often forms ask', async () => {
    expect(await requestWhatsAppMessages({ phone: '98450 12345', source: 'booking' }, db(), NOW)).toBe('requested')
    expect(await isOptedIn(NUMBER)).toBe(false)
    expect(await whatsappConsentOf(NUMBER)).toMatchObject({ optedIn: false, requestedAt: NOW, requestSource: 'booking', requestWording: WHATSAPP_OPT_IN_WORDING, confirmationSentAt: NOW })
    expect(await sentTo(NUMBER)).toEqual(['confirm_whatsapp_messages'])
    const [request] = await db().select({ text: outboxMessages.text }).from(outboxMessages).where(eq(outboxMessages.to, NUMBER))
    expect(request!.text).toContain('reply START')

    // A stranger filling in form after form with the number: still one request that day.
    for (const source of ['camp', 'registration', 'booking', 'account'] as const) await requestWhatsAppMessages({ phone: NUMBER, source }, db(), addHours(NOW, 3))
    expect(await sentTo(NUMBER)).toEqual(['confirm_whatsapp_messages'])
    expect(await requestWhatsAppMessages({ phone: NUMBER, source: 'camp' }, db(), addHours(NOW, 24))).toBe('requested')
    expect(await sentTo(NUMBER)).toEqual(['confirm_whatsapp_messages', 'confirm_whatsapp_messages'])
    expect(await isOptedIn(NUMBER)).toBe(false)
  })

  it('many forms asking at the same moment still send one request', async () => {
    await Promise.all(Array.from({ length: 10 }, () => db().transaction((tx) => requestWhatsAppMessages({ phone: NUMBER, source: 'booking' }, tx, NOW))))
    expect(await sentTo(NUMBER)).toEqual(['confirm_whatsapp_messages'])
  })

  it('never undoes a STOP, and does not even ask a number that replied STOP', async () => {
    await optInToWhatsApp({ phone: NUMBER, source: 'reply' }, db(), NOW)
    await optOutOfWhatsApp({ phone: NUMBER, source: 'reply' }, db(), addHours(NOW, 1))
    expect(await requestWhatsAppMessages({ phone: NUMBER, source: 'registration' }, db(), addHours(NOW, 2))).toBe('stopped')
    expect(await whatsappConsentOf(NUMBER)).toMatchObject({ optedIn: false, optOutSource: 'reply', requestedAt: null })
    expect(await sentTo(NUMBER)).toEqual([])
  })

  it('leaves a number its owner opted in as it is', async () => {
    await optInToWhatsApp({ phone: NUMBER, source: 'reply' }, db(), NOW)
    expect(await requestWhatsAppMessages({ phone: NUMBER, source: 'camp' }, db(), addHours(NOW, 1))).toBe('on')
    expect(await whatsappConsentOf(NUMBER)).toMatchObject({ optedIn: true, optInSource: 'reply', optedInAt: NOW, requestedAt: null })
    expect(await sentTo(NUMBER)).toEqual([])
  })

  it('asks a number switched off from its account: its owner may say yes', async () => {
    await optOutOfWhatsApp({ phone: NUMBER, source: 'account' }, db(), NOW)
    expect(await requestWhatsAppMessages({ phone: NUMBER, source: 'camp' }, db(), addHours(NOW, 1))).toBe('requested')
    expect(await sentTo(NUMBER)).toEqual(['confirm_whatsapp_messages'])
  })
})

describe("the number's owner", () => {
  it("opting in answers a form's request; opting out drops it", async () => {
    await requestWhatsAppMessages({ phone: NUMBER, source: 'camp', wording: 'The words on the camp form' }, db(), NOW)
    await optInToWhatsApp({ phone: NUMBER, source: 'reply', wording: 'The words on the camp form' }, db(), addHours(NOW, 1))
    expect(await whatsappConsentOf(NUMBER)).toMatchObject({ optedIn: true, optInSource: 'reply', optInWording: 'The words on the camp form', requestedAt: null, requestSource: null })
    await requestWhatsAppMessages({ phone: '+919845099999', source: 'camp' }, db(), NOW)
    await optOutOfWhatsApp({ phone: '+919845099999', source: 'reply' }, db(), addHours(NOW, 1))
    expect(await whatsappConsentOf('+919845099999')).toMatchObject({ optedIn: false, requestedAt: null })
  })
})
