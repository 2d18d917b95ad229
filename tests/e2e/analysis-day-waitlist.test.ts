import { describe, expect, it } from 'vitest'
import { addDays, labToday } from '~/lib/lab-time'
import { releasedDay, seedAnalysisDays } from '../support/analysis-days'
import { PHONE, useBrowser } from '../support/browser'
import { useTestSite } from '../support/site'

// The waitlist of a sold-out analysis day in a real browser without JavaScript, at a phone's size:
// the form under "Every slot of this day is taken.", its mistakes next to its fields, its answer,
// and the e-mailed link's page whose button keeps the place.

const browser = useBrowser()
let dayId = 0

const site = useTestSite(
  {},
  {
    async prepare(db, installation) {
      await seedAnalysisDays(db, installation, async (organiser) => {
        dayId = (await releasedDay(organiser, db, { venue: 'Balewadi Aquatics', date: addDays(labToday(), 9), booked: 2 })).dayId
      })
    },
  },
)

describe('the waitlist of a sold-out analysis day in the browser', () => {
  it('is joined from the day’s page and kept with the e-mailed link’s button, without JavaScript', async () => {
    const context = await browser.context(site.url, PHONE, { javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`/analysis-days/${dayId}`)
    expect(await page.getByText('Every slot of this day is taken.').isVisible()).toBe(true)
    const form = page.getByRole('region', { name: 'Join the waitlist' })
    await form.getByLabel("Swimmer's name").fill('Asha Rao')
    await form.getByLabel('Your e-mail address').fill('not-an-address')
    await form.getByRole('button', { name: 'Join the waitlist' }).click()
    await page.waitForLoadState()
    expect(await page.getByLabel('Your e-mail address').getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByText('Invalid email address').isVisible()).toBe(true)
    expect(await page.getByLabel("Swimmer's name").inputValue()).toBe('Asha Rao')

    await page.getByLabel('Your e-mail address').fill('asha.parent@example.com')
    await page.getByRole('button', { name: 'Join the waitlist' }).click()
    await page.waitForLoadState()
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Check your inbox')
    expect(await page.getByRole('status').innerText()).toContain('we have e-mailed that address a link to keep the place')

    const mail = await site.sink.waitForMailTo('asha.parent@example.com', /confirm your waitlist place/)
    const link = /http:\/\/\S+(\/analysis-days\/waitlist\/place\?entry=\d+&key=[\w-]+)/.exec(mail.text)![1]!
    await page.goto(link)
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Keep your place on the waitlist')
    await page.getByRole('button', { name: 'Keep my place' }).click()
    await page.waitForLoadState()
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe("You're on the waitlist")
    expect(await page.getByRole('status').innerText()).toContain("Asha Rao is number 1 on this day's waitlist.")
    await context.close()
  })
})
