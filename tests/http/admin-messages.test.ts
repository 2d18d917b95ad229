import { describe, expect, it } from 'vitest'
import { outboxMessages, users, whatsappConsents } from '~/db/schema'
import { text, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'

// Staff read every message the site sends, e-mail and WhatsApp, at /admin/messages, and a
// customer's own on their page. The messages are written before the site starts; WhatsApp is off
// on this site, so its messages stay as written (nothing delivers them).

const WHATSAPP = '+919845012345'
const queuedAt = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 4, minutes))

const site = useTestSite(
  {},
  {
    async prepare(db) {
      await db.insert(users).values({ name: 'Priya Nair', email: 'priya@example.com', passwordHash: 'x', phone: WHATSAPP, isVerified: true })
      await db.insert(whatsappConsents).values({ phone: WHATSAPP, optedIn: true, optedInAt: queuedAt(0), optInWording: 'Send me…', optInSource: 'camp' })
      const whatsapp = (subject: string, minutes: number, delivery: Partial<typeof outboxMessages.$inferInsert>) => ({
        channel: 'whatsapp' as const,
        to: WHATSAPP,
        subject,
        text: `Hello Priya, ${subject.toLowerCase()}.`,
        templateName: subject.toLowerCase().replaceAll(' ', '_'),
        templateParams: ['Priya'],
        status: 'sent' as const,
        attempts: 1,
        sentAt: queuedAt(minutes),
        createdAt: queuedAt(minutes),
        nextAttemptAt: queuedAt(minutes),
        ...delivery,
      })
      // Many old e-mails to page through, then WhatsApp messages (one of them to someone else).
      await db.insert(outboxMessages).values(
        Array.from({ length: 55 }, (_, index) => ({
          to: index === 0 ? 'priya@example.com' : `parent${index}@example.com`,
          subject: `Old e-mail ${index + 1}`,
          text: 'Old news',
          status: 'sent' as const,
          sentAt: queuedAt(0),
          createdAt: queuedAt(0),
          nextAttemptAt: queuedAt(0),
        })),
      )
      await db.insert(outboxMessages).values([
        whatsapp('Booking confirmed', 1, { providerMessageId: 'wamid.read', deliveryStatus: 'read', deliveryUpdatedAt: queuedAt(5) }),
        whatsapp('Refund started', 2, { providerMessageId: 'wamid.failed', deliveryStatus: 'failed', deliveryError: '131026: Message undeliverable', deliveryUpdatedAt: queuedAt(6) }),
        whatsapp('Payment failed', 3, { status: 'retrying', attempts: 3, sentAt: null, lastError: '132015: Template is paused' }),
        whatsapp('Report ready', 4, { to: '+919900011122', providerMessageId: 'wamid.other' }),
      ])
    },
  },
)

const page = async (path: string) => {
  const response = await (await site.sharedStaff()).get(path)
  expect(response.status, path).toBe(200)
  return response.html
}
const titles = (html: string) => [...html.matchAll(/<h[23] class="text-base font-bold text-ink">([\s\S]*?)<\/h[23]>/g)].map((match) => text(match[1]!).trim())

describe('the messages page', () => {
  it('lists e-mails and WhatsApp messages newest first, with what WhatsApp reported of each', async () => {
    const html = await page('/admin/messages')
    expect(text(html)).toContain('Messages')
    const listed = titles(html)
    expect(listed).toHaveLength(50)
    expect(listed.slice(0, 4)).toEqual(['WhatsApp Report ready', 'WhatsApp Payment failed', 'WhatsApp Refund started', 'WhatsApp Booking confirmed'])
    const words = text(html)
    expect(words).toContain('To +91 98450 12345')
    expect(words).toContain('Read 9:35 AM IST on 20 November 2026')
    expect(words).toContain('Not delivered 9:36 AM IST on 20 November 2026')
    expect(words).toContain('131026: Message undeliverable')
    expect(words).toContain('Last error: 132015: Template is paused')
    expect(words).toContain('template booking_confirmed')
  })

  it('filters by channel and by recipient, however the number is typed, and pages back through older messages', async () => {
    expect(titles(await page('/admin/messages?channel=whatsapp'))).toHaveLength(4)
    expect(titles(await page('/admin/messages?channel=email'))[0]).toBe('E-mail Old e-mail 55')
    for (const typed of ['98450 12345', '+91 98450-12345', '09845012345']) {
      expect(titles(await page(`/admin/messages?${new URLSearchParams({ to: typed })}`)), typed).toEqual([
        'WhatsApp Payment failed',
        'WhatsApp Refund started',
        'WhatsApp Booking confirmed',
      ])
    }
    expect(titles(await page('/admin/messages?to=PRIYA@example.com'))).toEqual(['E-mail Old e-mail 1'])

    const first = await page('/admin/messages')
    const older = /href="(\/admin\/messages\?before=\d+)"[^>]*>Older messages/.exec(first)?.[1]
    expect(older).toBeDefined()
    const second = await page(older!.replaceAll('&amp;', '&'))
    expect(titles(second)).toHaveLength(9)
    expect(titles(second).at(-1)).toBe('E-mail Old e-mail 1')
    expect(second).toContain('Newest messages')
    expect(second).not.toContain('Older messages')
    expect(text(await page('/admin/messages?to=nobody@example.com'))).toContain('No messages match.')
  })

  it('the old mailbox address leads to the messages, and only staff read them', async () => {
    const moved = await (await site.sharedStaff()).get('/admin/mail?channel=whatsapp')
    expect([moved.status, moved.location]).toEqual([301, '/admin/messages?channel=whatsapp'])
    const guest = new Visitor(site.url)
    expect((await guest.get('/admin/messages')).location).toBe('/login?redirectTo=%2Fadmin%2Fmessages')
    const customer = await site.customer('Ravi Kumar')
    expect((await customer.get('/admin/messages')).status).toBe(403)
  })
})

describe("a customer's page", () => {
  it("shows their WhatsApp state and their messages, e-mail and WhatsApp, and no one else's", async () => {
    const results = await page('/admin/customers?q=priya')
    const customerPage = /href="(\/admin\/customers\/\d+)"/.exec(results)![1]!
    const html = await page(customerPage)
    const words = text(html)
    expect(words).toContain('WhatsApp messages On since 9:30 AM IST on 20 November 2026, through a camp form')
    const messages = html.slice(html.indexOf('id="messages-heading"'))
    expect(titles(messages)).toEqual(['WhatsApp Payment failed', 'WhatsApp Refund started', 'WhatsApp Booking confirmed', 'E-mail Old e-mail 1'])
  })
})
