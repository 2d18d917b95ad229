import { describe, expect, it } from 'vitest'
import { addDays, labToday } from '~/lib/lab-time'
import { releasedDay, seedAnalysisDays } from '../support/analysis-days'
import { textOf } from '../support/page-text'
import { useTestSite } from '../support/site'
import { fieldState, Visitor } from '../support/visitor'

// The waitlist of a sold-out analysis day over HTTP, as a browser without JavaScript uses it: the
// form under "Every slot of this day is taken.", its messages next to its fields, the same answer
// for a swimmer already waiting; the e-mailed link whose page confirms only on its button; and the
// slot freed by staff offered to the first in line, paid through the offer's private link.

const DAY = addDays(labToday(), 9)
let soldOut = 0
let withFreeSlot = 0
const references: string[] = []

const site = useTestSite(
  {},
  {
    async prepare(db, installation) {
      const now = new Date()
      await seedAnalysisDays(db, installation, async (organiser) => {
        const full = await releasedDay(organiser, db, { venue: 'Balewadi Aquatics', date: DAY, booked: 1, now })
        soldOut = full.dayId
        references.push(...full.references)
        withFreeSlot = (await releasedDay(organiser, db, { venue: 'Chamundi Pool', date: addDays(DAY, 1), now })).dayId
      })
    },
  },
)

const form = (values: Record<string, string>) => ({ website_url: '', ...values })

/** The newest link to keep a place e-mailed to `email`. */
async function placeLink(email: string) {
  const mail = await site.sink.waitForMailTo(email, /confirm your waitlist place/)
  const link = /(http:\/\/\S+\/analysis-days\/waitlist\/place\?entry=\d+&key=[\w-]+)/.exec(mail.text)?.[1]
  expect(link, `a link in the e-mail to ${email}`).toBeDefined()
  return link!
}

describe('the waitlist of a sold-out analysis day', () => {
  it('is offered under the sold-out message, and refused on a day with a slot free', async () => {
    const page = await new Visitor(site.url).get(`/analysis-days/${soldOut}`)
    expect(page.status).toBe(200)
    const text = textOf(page.html)
    expect(text).toContain('Every slot of this day is taken.')
    expect(text).toContain('Join the waitlist')
    expect(page.html).toContain(`action="/analysis-days/${soldOut}/waitlist"`)

    const open = await new Visitor(site.url).get(`/analysis-days/${withFreeSlot}`)
    expect(textOf(open.html)).not.toContain('Join the waitlist')
    const refused = await new Visitor(site.url).post(`/analysis-days/${withFreeSlot}/waitlist`, form({ swimmerName: 'Asha Rao', email: 'asha@example.com' }))
    expect(refused.status).toBe(409)
    expect(textOf(refused.html)).toContain('A time slot of this day is still free, so there is no need to wait. Please book it instead.')
    expect((await new Visitor(site.url).get('/analysis-days/999999/waitlist')).status).toBe(404)
  })

  it('shows its messages next to the fields, and answers the same for a swimmer already waiting', async () => {
    const path = `/analysis-days/${soldOut}/waitlist`
    const invalid = await new Visitor(site.url).post(path, form({ swimmerName: 'A', email: 'not an address', phone: '12' }))
    expect(invalid.status).toBe(400)
    expect(fieldState(invalid.html, 'swimmerName')).toEqual({ invalid: true, message: "Swimmer's name must be at least 2 characters" })
    expect(fieldState(invalid.html, 'email')).toEqual({ invalid: true, message: 'Invalid email address' })
    expect(fieldState(invalid.html, 'phone')).toEqual({ invalid: true, message: 'Phone number must be at least 10 digits' })
    expect((await new Visitor(site.url).post(path, form({ swimmerName: 'Asha Rao', email: 'asha@example.com', website_url: 'http://spam.example' }))).status).toBe(400)

    const first = await new Visitor(site.url).post(path, form({ swimmerName: 'Bina Das', email: 'bina@example.com' }))
    expect(first.status).toBe(200)
    await placeLink('bina@example.com')
    const again = await new Visitor(site.url).post(path, form({ swimmerName: 'Bina Das', email: 'bina@example.com' }))
    expect(again.status).toBe(200)
    const strip = (html: string) => textOf(html).replace(/by .+? IST on [^:]+:/, 'by …:')
    expect(strip(again.html)).toBe(strip(first.html))
    expect(textOf(again.html)).toContain("Unless Bina Das is already on this day's waitlist under bina@example.com, we have e-mailed that address a link to keep the place.")
  })

  it('keeps a place only when its button is pressed, and offers a slot staff free to the first in line, paid through its link', async () => {
    const parent = new Visitor(site.url)
    expect((await parent.post(`/analysis-days/${soldOut}/waitlist`, form({ swimmerName: 'Chitra Iyer', email: 'chitra@example.com', phone: '98450 12345' }))).status).toBe(200)
    const link = await placeLink('chitra@example.com')
    const opened = await parent.get(link)
    expect(opened.status).toBe(200)
    expect(opened.headers.get('Cache-Control')).toBe('private, no-store')
    expect(opened.headers.get('Referrer-Policy')).toBe('same-origin')
    expect(textOf(opened.html)).toContain('Keep your place on the waitlist')
    expect(textOf((await parent.get(link)).html)).toContain('Keep my place')
    for (const wrong of [link.replace(/key=[\w-]+/, `key=${'a'.repeat(32)}`), link.replace(/entry=\d+/, 'entry=999999')]) {
      expect((await new Visitor(site.url).get(wrong)).status).toBe(404)
      expect((await new Visitor(site.url).post(wrong, { website_url: '' })).status).toBe(404)
    }
    const kept = await parent.post(link, { website_url: '' })
    expect(kept.status).toBe(302)
    expect(textOf((await parent.get(kept.location!)).html)).toContain("Chitra Iyer is number 1 on this day's waitlist.")
    const admin = textOf((await (await site.sharedStaff()).get(`/admin/analysis-days/${soldOut}`)).html)
    expect(admin).toContain('Waitlist (1)')
    expect(admin).toContain('Chitra Iyer')

    // Staff cancel the 09:20 booking: the worker holds the slot for Chitra and e-mails her the link to pay.
    const staff = await site.sharedStaff()
    expect((await staff.post(`/admin/bookings/${references[1]}`, { intent: 'cancel', refund: 'no', confirm: 'yes' })).status).toBe(302)
    const offer = await site.sink.waitForMailTo('chitra@example.com', /A slot is free/, 45_000)
    expect(offer.text).toContain('9:20 AM')
    expect(offer.text).toContain('Balewadi Aquatics')
    const offerLink = /(http:\/\/\S+\/analysis-days\/waitlist\/offer\?booking=SWP-\d+&key=[\w-]+)/.exec(offer.text)![1]!
    const offerPage = await parent.get(offerLink)
    expect(offerPage.headers.get('Cache-Control')).toBe('private, no-store')
    const offerText = textOf(offerPage.html)
    expect(offerText).toContain('A slot is held for you')
    expect(offerText).toContain('₹1,500.00')
    expect(offerText).toMatch(/The slot is yours if you pay by \d{1,2}:\d{2} [AP]M IST/)
    expect((await parent.get(offerLink.replace(/key=[\w-]+/, `key=${'a'.repeat(32)}`))).status).toBe(404)
    expect(textOf((await parent.get(link)).html)).toContain('A slot is held for you')

    const pay = await parent.post(offerLink, { website_url: '', intent: 'pay' })
    expect(pay.status).toBe(302)
    const back = await parent.post(pay.location!, { outcome: 'success' })
    expect(back.location).toContain('/booking?step=3')
    await expect.poll(async () => textOf((await parent.get(offerLink)).html), { timeout: 15_000 }).toContain('Already booked')
    expect(textOf((await parent.get(link)).html)).toContain('Already booked')
  }, 90_000)
})

describe('the waitlist refuses', () => {
  it('a fourth place from one network', async () => {
    const visitor = new Visitor(site.url)
    const path = `/analysis-days/${soldOut}/waitlist`
    for (const name of ['Deepa Nair', 'Esha Gill', 'Farah Khan']) expect((await visitor.post(path, form({ swimmerName: name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com` }))).status).toBe(200)
    const refused = await visitor.post(path, form({ swimmerName: 'Gita Rao', email: 'gita@example.com' }))
    expect(refused.status).toBe(429)
    expect(textOf(refused.html)).toContain('Your internet connection already holds 3 places on our analysis day waitlists')
  })
})

