import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { venues } from '~/db/schema'
import { addDays, labToday } from '~/lib/lab-time'
import { createAnalysisDay } from '~/modules/booking/analysis-days.server'
import { LIMITS } from '~/modules/rate-limit/limits.server'
import { analysisDayForm, readyVenue, seedAnalysisDays } from '../support/analysis-days'
import { textOf } from '../support/page-text'
import { withinOneWindow } from '../support/rate-limit-window'
import { useTestSite } from '../support/site'
import { fieldState, Visitor } from '../support/visitor'

// "Tell me when the lab comes to my city" over HTTP, as a browser without JavaScript uses it: the
// form on the list of analysis days, its refusals next to its fields, its rate limits, the same
// answer whatever the address asked before; the e-mailed links whose pages change nothing until
// their button is pressed; and the alert staff publishing a day in the city sends, with its link
// that stops them.

const PUNE_DAY = addDays(labToday(), 9)
let dayId = 0

const site = useTestSite(
  {},
  {
    async prepare(db, installation) {
      const now = new Date()
      await seedAnalysisDays(db, installation, async (organiser) => {
        dayId = await createAnalysisDay(organiser, analysisDayForm(await readyVenue(organiser, PUNE_DAY, now, 'Balewadi Aquatics'), PUNE_DAY), now)
        await readyVenue(organiser, addDays(PUNE_DAY, 1), now, 'Chamundi Pool')
      })
      await db.update(venues).set({ city: 'Mysuru' }).where(eq(venues.name, 'Chamundi Pool'))
    },
  },
)

const PAGE = '/analysis-days'
/** A test that first waits for a fresh rate-limit window (up to a minute, near a window's end) has this long in all. */
const WAITS_FOR_A_WINDOW = 120_000
const form = (email: string, city: string, over: Record<string, string> = {}) => ({ email, city, website_url: '', ...over })

/** The section of the alert form, as text. */
const formText = (html: string) => textOf(html.slice(html.indexOf('id="city-alert-section"'), html.indexOf('</section>', html.indexOf('id="city-alert-section"'))))

/** The token of the newest link of `kind` e-mailed to `email`. */
async function linkIn(email: string, kind: 'confirm' | 'stop', match = /./) {
  const mail = await site.sink.waitForMailTo(email, match)
  const pattern = kind === 'confirm' ? /\/city-alerts\/([A-Za-z0-9_-]{43})/ : /\/city-alerts\/stop\/([A-Za-z0-9_-]{43})/
  const token = pattern.exec(mail.text)?.[1]
  expect(token, `a ${kind} link in the e-mail to ${email}`).toBeDefined()
  return token!
}

/** Presses a link page's button: it acts once, and the link no longer works after. */
async function pressOnce(visitor: Visitor, path: string, done: string) {
  const answer = await visitor.post(path, { website_url: '' })
  expect(answer.status).toBe(200)
  expect(textOf(answer.html)).toContain(done)
  const again = await visitor.post(path, { website_url: '' })
  expect(again.status).toBe(404)
  expect(textOf(again.html)).toContain('This link no longer works')
  expect((await visitor.get(path)).status).toBe(404)
}

describe('the alert form on the list of analysis days', () => {
  it('suggests the cities of the lab’s venues and answers the same whether the address is new, waiting or confirmed', async () => {
    const page = await new Visitor(site.url).get(PAGE)
    expect(page.status).toBe(200)
    expect(formText(page.html)).toContain('Tell me when the lab comes to my city')
    expect(/<input[^>]*name="city"[^>]*>/.exec(page.html)?.[0]).toContain('list="city-alert-cities"')
    const suggested = [...page.html.matchAll(/<option value="([^"]+)"/g)].map((match) => match[1])
    expect(suggested).toEqual(expect.arrayContaining(['Mysuru', 'Pune']))
    // Anonymous: no WhatsApp box.
    expect(page.html).not.toContain('name="whatsapp"')

    const fresh = await new Visitor(site.url).post(PAGE, form('fresh@example.com', 'Pune'))
    await new Visitor(site.url).post(PAGE, form('waiting@example.com', 'Pune'))
    await site.sink.waitForMailTo('waiting@example.com')
    const waiting = await new Visitor(site.url).post(PAGE, form('waiting@example.com', 'Pune'))
    const owner = new Visitor(site.url)
    await owner.post(PAGE, form('confirmed@example.com', 'Pune'))
    expect((await owner.post(`/city-alerts/${await linkIn('confirmed@example.com', 'confirm')}`, { website_url: '' })).status).toBe(200)
    const confirmed = await new Visitor(site.url).post(PAGE, form('confirmed@example.com', 'Pune'))
    const answers = [fresh, waiting, confirmed]
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
    expect(formText(fresh.html)).toContain('Check your inbox to confirm. Unless this address already gets alerts for Pune, we have e-mailed it a link to confirm them, valid for 7 days.')
    for (const answer of [waiting, confirmed]) expect(formText(answer.html)).toBe(formText(fresh.html))
    // Nothing of anyone's address shows on the page.
    for (const answer of answers) expect(answer.html).not.toMatch(/(fresh|waiting|confirmed)@example\.com/)
  })

  it('refuses a wrong address or city next to its field, with nothing sent', async () => {
    const visitor = new Visitor(site.url)
    const empty = await visitor.post(PAGE, form('', ''))
    expect(empty.status).toBe(400)
    expect(fieldState(empty.html, 'email')).toEqual({ invalid: true, message: 'Invalid email address' })
    expect(fieldState(empty.html, 'city')).toEqual({ invalid: true, message: 'Enter the city, such as Pune' })
    const linked = await visitor.post(PAGE, form('not-an-address', 'www.example.com'))
    expect(linked.status).toBe(400)
    expect(fieldState(linked.html, 'email').message).toBe('Invalid email address')
    expect(fieldState(linked.html, 'city').message).toBe('Enter the city in letters, such as Pune')
    const long = await visitor.post(PAGE, form(`${'a'.repeat(250)}@example.com`, 'P'.repeat(61)))
    expect(long.status).toBe(400)
    expect(fieldState(long.html, 'email').message).toBe('Invalid email address')
    expect(fieldState(long.html, 'city').message).toBe('Please use at most 60 characters')
    // What was typed comes back in the fields.
    expect(linked.html).toMatch(/<input[^>]*name="city"[^>]*value="www.example.com"/)
    // Nothing went to what was typed (the earlier tests' e-mails may still be arriving: counted by recipient, not in all).
    const typed = ['not-an-address', `${'a'.repeat(250)}@example.com`]
    expect(site.sink.messages.filter((message) => message.to.some((to) => typed.includes(to.toLowerCase())))).toEqual([])
  })

  it('is limited per client address and per address typed, saying so above the form', async () => {
    await withinOneWindow(LIMITS.cityAlertPerIp.windowSeconds, 60_000)
    const busy = new Visitor(site.url)
    const statuses: number[] = []
    for (let index = 0; index <= LIMITS.cityAlertPerIp.limit; index += 1) statuses.push((await busy.post(PAGE, form(`busy${index}@example.com`, 'Pune'))).status)
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true)
    expect(statuses.at(-1)).toBe(429)
    let last
    for (let index = 0; index <= LIMITS.cityAlertPerAddress.limit; index += 1) last = await new Visitor(site.url).post(PAGE, form('target@example.com', 'Mysuru'))
    expect(last!.status).toBe(429)
    expect(formText(last!.html)).toMatch(/Too many attempts\. Please wait \d+ minutes? and try again\./)
    expect(last!.html).toMatch(/role="alert"/)
  }, WAITS_FOR_A_WINDOW)
})

describe('the e-mailed links', () => {
  it('confirm only when the page’s button is pressed, once; a day published in the city then sends an alert whose link stops them', async () => {
    const visitor = new Visitor(site.url)
    await visitor.post(PAGE, form('Journey@Example.com', 'pune '))
    const token = await linkIn('journey@example.com', 'confirm')
    const confirmPath = `/city-alerts/${token}`
    // Opening the link (as a mail scanner does) changes nothing.
    for (let index = 0; index < 2; index += 1) {
      const opened = await new Visitor(site.url).get(confirmPath)
      expect(opened.status).toBe(200)
      expect(textOf(opened.html)).toContain('Confirm your alerts')
      expect(opened.html).toMatch(/<form[^>]*method="post"/)
      expect(opened.headers.get('Cache-Control')).toBe('private, no-store')
      expect(opened.headers.get('Referrer-Policy')).toBe('same-origin')
      expect(opened.html).toContain('noindex')
    }
    await pressOnce(visitor, confirmPath, 'Alerts confirmed')
    expect((await visitor.get('/city-alerts/not-a-token')).status).toBe(404)

    const admin = await site.sharedStaff()
    expect((await admin.post(`/admin/analysis-days/${dayId}`, { intent: 'publish' })).status).toBe(302)
    const alert = await site.sink.waitForMailTo('journey@example.com', /The lab comes to Pune/)
    expect(alert.text).toContain('Balewadi Aquatics')
    expect(alert.text).toContain(`/analysis-days/${dayId}`)
    const stopPath = `/city-alerts/stop/${await linkIn('journey@example.com', 'stop', /The lab comes to/)}`
    const stopPage = await new Visitor(site.url).get(stopPath)
    expect(stopPage.status).toBe(200)
    expect(textOf(stopPage.html)).toContain('Stop the alerts')
    await pressOnce(visitor, stopPath, 'Alerts stopped')
  })

  it('are limited per client address', async () => {
    await withinOneWindow(LIMITS.cityAlertAnswerPerIp.windowSeconds, 60_000)
    const guesser = new Visitor(site.url)
    let last
    for (let index = 0; index <= LIMITS.cityAlertAnswerPerIp.limit; index += 1) last = await guesser.post(`/city-alerts/${'A'.repeat(43)}`, { website_url: '' })
    expect(last!.status).toBe(429)
    expect(textOf(last!.html)).toMatch(/Too many attempts/)
  }, WAITS_FOR_A_WINDOW)
})
