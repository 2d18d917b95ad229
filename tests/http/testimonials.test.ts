import { describe, expect, it } from 'vitest'
import { LIMITS } from '~/modules/rate-limit/limits.server'
import { MAX_SENDS_PER_DAY } from '~/modules/testimonials/limits'
import { addPortrait } from '../support/media'
import { between } from '../support/page-text'
import { withinOneWindow } from '../support/rate-limit-window'
import { useTestSite } from '../support/site'
import { text, Visitor } from '../support/visitor'

// Testimonials through the pages, as a browser without JavaScript uses them: staff ask at
// /admin/testimonials, the person answers through the e-mailed link, and the home page shows the
// words only while they agree.

const photos = {} as Record<'portrait', { id: number }>

const site = useTestSite(
  {},
  {
    prepare: async (db) => {
      photos.portrait = await addPortrait(db, { title: 'Swimmer portrait', altText: 'A swimmer smiling on the pool deck', status: 'ready' })
    },
  },
)

const ask = (fields: Record<string, string>) => ({ intent: 'ask', role: 'parent of a 12-year-old', photoId: '', ...fields })

/** Staff ask for a testimonial; returns the path of the link e-mailed to `email`. */
async function askFor(fields: Record<string, string> & { email: string; quote: string; name: string }) {
  const admin = await site.sharedStaff()
  const asked = await admin.post('/admin/testimonials', ask(fields))
  expect(asked.status).toBe(302)
  const mail = await site.sink.waitForMailTo(fields.email, /words on the/)
  return /\/testimonials\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0]
}

/** The home page's "What families say" section as text, or null when the page has none. */
async function homeSection() {
  const html = (await new Visitor(site.url).get('/')).html
  return html.includes('aria-labelledby="testimonials-heading"') ? between(html, 'aria-labelledby="testimonials-heading"', '</section>') : null
}

describe('a testimonial from the request to the home page', () => {
  it('is shown only after the person agrees through the e-mailed link, and no longer once they withdraw it', async () => {
    const quote = 'Seeing my stroke from under the water changed how I train.'
    const path = await askFor({ quote, name: 'Rohan Iyer', role: 'national-level swimmer', email: 'rohan.iyer@example.com', photoId: String(photos.portrait.id) })
    expect(await homeSection()).toBeNull()

    const person = new Visitor(site.url)
    const page = await person.get(path)
    expect(page.status).toBe(200)
    expect(page.headers.get('Cache-Control')).toBe('private, no-store')
    const shown = between(page.html, '<figure', '</figure>')
    expect(between(shown, '<blockquote', '</blockquote>')).toContain(quote)
    expect(text(between(shown, '<figcaption', '</figcaption>'))).toContain('Rohan Iyer national-level swimmer')
    expect(shown).toContain('alt="A swimmer smiling on the pool deck"')
    expect(text(page.html)).toContain('Yes, show it')
    expect(text(page.html)).toContain('No, thanks')
    // Opening the page agrees to nothing.
    expect(await homeSection()).toBeNull()

    const agreed = await person.post(path, { intent: 'agree', website_url: '' })
    expect(agreed.status).toBe(302)
    expect(agreed.location).toBe('/')
    await expect.poll(async () => (await homeSection()) ?? '').toContain(quote)
    const section = (await homeSection())!
    expect(section).toContain('What families say')
    expect(between(section, '<blockquote', '</blockquote>')).toContain(quote)
    expect(text(between(section, '<figcaption', '</figcaption>'))).toContain('Rohan Iyer national-level swimmer')
    expect(section).toContain('<picture>')
    expect(text((await new Visitor(site.url).get('/about')).html)).toContain(quote)

    // The link answers once.
    expect((await person.get(path)).status).toBe(404)
    expect((await person.post(path, { intent: 'decline', website_url: '' })).status).toBe(404)

    const confirmation = await site.sink.waitForMailTo('rohan.iyer@example.com', /Thank you: your answer/)
    const withdrawal = /\/testimonials\/withdraw\/\d+\?key=[A-Za-z0-9_-]+/.exec(confirmation.text)![0]
    const withdrawPage = await person.get(withdrawal)
    expect(withdrawPage.status).toBe(200)
    expect(text(withdrawPage.html)).toContain('Take it off the website')
    expect(await homeSection()).toContain(quote)
    const withdrawn = await person.post(withdrawal, { intent: 'withdraw', website_url: '' })
    expect(withdrawn.status).toBe(200)
    expect(text(withdrawn.html)).toContain('no longer on our website')
    await expect.poll(async () => (await homeSection()) ?? '').not.toContain(quote)
    expect(text((await new Visitor(site.url).get('/about')).html)).not.toContain(quote)

    const staffList = text((await (await site.sharedStaff()).get('/admin/testimonials')).html)
    expect(staffList).toContain('Withdrawn by the person')
  })

  it("asks a parent for a speaker under 18, and the page says they agree as the parent or guardian", async () => {
    const path = await askFor({ quote: 'My turns got faster in a month.', name: 'Kavya Menon', email: 'kavya.parent@example.com', aboutMinor: 'on' })
    const page = text((await new Visitor(site.url).get(path)).html)
    expect(page).toContain("May we show Kavya Menon's words?")
    expect(page).toContain("you agree on Kavya Menon's behalf, as their parent or guardian")
    const declined = await new Visitor(site.url).post(path, { intent: 'decline', website_url: '' })
    expect(declined.status).toBe(302)
    expect((await homeSection()) ?? '').not.toContain('My turns got faster')
  })

  it('staff take it off the site at once', async () => {
    const quote = 'The report was clear enough to train with the next morning.'
    const path = await askFor({ quote, name: 'Suresh Kumar', role: 'coach, Dolphin Aquatics', email: 'suresh.coach@example.com' })
    await new Visitor(site.url).post(path, { intent: 'agree', website_url: '' })
    await expect.poll(async () => (await homeSection()) ?? '').toContain(quote)
    const admin = await site.sharedStaff()
    const id = /name="id" value="(\d+)"/.exec(between((await admin.get('/admin/testimonials')).html, 'Suresh Kumar', '</li>'))![1]!
    expect((await admin.post('/admin/testimonials', { intent: 'withdraw', id })).status).toBe(302)
    await expect.poll(async () => (await homeSection()) ?? '').not.toContain(quote)
  })
})

describe('links that cannot be answered', () => {
  it('answer the same 404 page whether the token is unknown, malformed or used', async () => {
    const path = await askFor({ quote: 'Worth every minute.', name: 'Meena Das', email: 'meena.das@example.com' })
    await new Visitor(site.url).post(path, { intent: 'decline', website_url: '' })
    const visitor = new Visitor(site.url)
    const used = await visitor.get(path)
    const unknown = await visitor.get(`/testimonials/${'A'.repeat(43)}`)
    const malformed = await visitor.get('/testimonials/not-a-token')
    for (const page of [used, unknown, malformed]) expect(page.status).toBe(404)
    expect(text(used.html)).toBe(text(unknown.html))
    expect(text(malformed.html)).toBe(text(unknown.html))
  })

  it('bounds the answers one client address may post', async () => {
    await withinOneWindow(LIMITS.testimonialAnswerPerIp.windowSeconds)
    const visitor = new Visitor(site.url)
    for (let attempt = 0; attempt < LIMITS.testimonialAnswerPerIp.limit; attempt += 1) {
      expect((await visitor.post(`/testimonials/${'C'.repeat(43)}`, { intent: 'agree', website_url: '' })).status).toBe(404)
    }
    const refused = await visitor.post(`/testimonials/${'C'.repeat(43)}`, { intent: 'agree', website_url: '' })
    expect(refused.status).toBe(429)
  })
})

describe('the staff page', () => {
  it('checks the form next to its fields, and sends a request again at most three times a day', async () => {
    const admin = await site.sharedStaff()
    const refused = await admin.post('/admin/testimonials', ask({ quote: '', name: 'http://phish.example', email: 'not-an-address' }))
    expect(refused.status).toBe(400)
    expect(text(refused.html)).toContain('Enter their words.')
    expect(text(refused.html)).toContain('Please enter the name in letters')

    await askFor({ quote: 'Our club now films every swimmer.', name: 'Lata Nair', role: 'coach, Wave Academy', email: 'lata.nair@example.com' })
    const id = /name="id" value="(\d+)"/.exec(between((await admin.get('/admin/testimonials')).html, 'Lata Nair', '</li>'))![1]!
    for (let send = 2; send <= MAX_SENDS_PER_DAY; send += 1) expect((await admin.post('/admin/testimonials', { intent: 'resend', id })).status).toBe(302)
    const tooMany = await admin.post('/admin/testimonials', { intent: 'resend', id })
    expect(tooMany.status).toBe(429)
    expect(text(tooMany.html)).toContain(`This request has already been e-mailed ${MAX_SENDS_PER_DAY} times today.`)
    await expect.poll(() => site.sink.messages.filter((message) => message.to.includes('lata.nair@example.com')).length).toBe(MAX_SENDS_PER_DAY)
  })
})
