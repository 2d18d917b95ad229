import { asc, eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { loadConfig, setConfig } from '~/config.server'
import { useWhatsAppOn } from '../../../tests/support/whatsapp-on'
import { db } from '~/db/client.server'
import { outboxMessages } from '~/db/schema'
import { addHours } from '~/lib/lab-time'
import { useTestDatabase } from '../../../tests/support/test-database'
import { optInToWhatsApp } from './consent.server'
import { notifyOnWhatsApp } from './notify.server'
import { WHATSAPP_MESSAGES_PER_NUMBER_PER_DAY } from './numbers.server'
import { WHATSAPP_TEMPLATES } from './templates'

useTestDatabase()

useWhatsAppOn()

const SAMPLES = WHATSAPP_TEMPLATES.payment_failed.parameters.map((parameter) => parameter.sample)
const queuedTo = async (to: string) => (await db().select({ id: outboxMessages.id }).from(outboxMessages).where(eq(outboxMessages.to, to)).orderBy(asc(outboxMessages.id))).length

describe('notifyOnWhatsApp', () => {
  it('queues the message with its text, in E.164, however the number was typed', async () => {
    await optInToWhatsApp({ phone: '98450 12345', source: 'booking' })
    const id = await notifyOnWhatsApp('payment_failed', { phone: '+91 98450-12345', parameters: SAMPLES, about: {} })
    const [row] = await db().select().from(outboxMessages).where(eq(outboxMessages.id, id!))
    expect(row).toMatchObject({ channel: 'whatsapp', to: '+919845012345', subject: 'Payment failed', templateName: 'payment_failed', templateParams: SAMPLES, status: 'queued' })
    expect(row!.text).toContain(SAMPLES[0])
    expect(row!.text).toMatch(/Reply STOP to stop WhatsApp messages\.$/)
  })

  it('one number gets a bounded number of messages a day, whoever keeps causing them', async () => {
    await optInToWhatsApp({ phone: '+919845012345', source: 'booking' })
    await optInToWhatsApp({ phone: '+919845099999', source: 'booking' })
    const now = new Date('2030-03-04T04:00:00Z')
    for (let i = 0; i < WHATSAPP_MESSAGES_PER_NUMBER_PER_DAY + 5; i += 1) await notifyOnWhatsApp('payment_failed', { phone: '+919845012345', parameters: SAMPLES, about: {} }, db(), now)
    expect(await queuedTo('+919845012345')).toBe(WHATSAPP_MESSAGES_PER_NUMBER_PER_DAY)
    // Another number is not held back, and the next day the first one hears again.
    expect(await notifyOnWhatsApp('payment_failed', { phone: '+919845099999', parameters: SAMPLES, about: {} }, db(), now)).not.toBeNull()
    expect(await notifyOnWhatsApp('payment_failed', { phone: '+919845012345', parameters: SAMPLES, about: {} }, db(), addHours(now, 23))).toBeNull()
    expect(await notifyOnWhatsApp('payment_failed', { phone: '+919845012345', parameters: SAMPLES, about: {} }, db(), addHours(now, 24))).not.toBeNull()
  })

  it('events for one number at the same moment, each in its own transaction, queue no more than the day allows', async () => {
    await optInToWhatsApp({ phone: '+919845012345', source: 'booking' })
    const now = new Date('2030-03-04T04:00:00Z')
    // On PostgreSQL, the pool's connections open first, so that no event waits for its connection to be made.
    await Promise.all(Array.from({ length: 20 }, () => db().transaction((tx) => tx.execute(sql`SELECT pg_sleep(0.05)`))))
    const events = Array.from({ length: WHATSAPP_MESSAGES_PER_NUMBER_PER_DAY * 3 }, () =>
      db().transaction((tx) => notifyOnWhatsApp('payment_failed', { phone: '+919845012345', parameters: SAMPLES, about: {} }, tx, now)),
    )
    const queued = (await Promise.all(events)).filter((id) => id !== null)
    expect(queued).toHaveLength(WHATSAPP_MESSAGES_PER_NUMBER_PER_DAY)
    expect(await queuedTo('+919845012345')).toBe(WHATSAPP_MESSAGES_PER_NUMBER_PER_DAY)
  })

  it('while WhatsApp is off, nothing is read for a message and nothing is queued', async () => {
    await optInToWhatsApp({ phone: '+919845012345', source: 'booking' })
    setConfig(loadConfig(process.env))
    let read = false
    const notice = async () => {
      read = true
      return { phone: '+919845012345', parameters: SAMPLES, about: {} }
    }
    expect(await notifyOnWhatsApp('payment_failed', notice)).toBeNull()
    expect(read).toBe(false)
    expect(await queuedTo('+919845012345')).toBe(0)
  })

  it('a wrong number of parameters is a mistake in the code, not a message', async () => {
    await optInToWhatsApp({ phone: '+919845012345', source: 'booking' })
    await expect(notifyOnWhatsApp('payment_failed', { phone: '+919845012345', parameters: SAMPLES.slice(1), about: {} })).rejects.toThrow(/takes 4 parameters, not 3/)
  })
})
