import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { venues } from '~/db/schema'
import { addDays, labToday } from '~/lib/lab-time'
import { publishedDay, seedAnalysisDays } from '../support/analysis-days'
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE, useBrowser, watchPageErrors } from '../support/browser'
import { useTestSite } from '../support/site'

// "Tell me when the lab comes to my city" in a real browser, at a phone's and a desktop's size: the
// form under the list of analysis days, its mistakes next to its fields, its answer, and the e-mailed
// link's page whose button confirms the alerts; and without JavaScript all the same.

const browser = useBrowser()

const site = useTestSite(
  {},
  {
    async prepare(db, installation) {
      const now = new Date()
      await seedAnalysisDays(db, installation, (organiser) => publishedDay(organiser, addDays(labToday(), 9), now, {}, 'Chamundi Pool'))
      await db.update(venues).set({ city: 'Mysuru' }).where(eq(venues.name, 'Chamundi Pool'))
    },
  },
)

/** The path of the confirmation link e-mailed to `email`. */
async function confirmPathFor(email: string) {
  const mail = await site.sink.waitForMailTo(email, /Please confirm/)
  const token = /\/city-alerts\/([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1]
  expect(token).toBeDefined()
  return `/city-alerts/${token}`
}

describe('city alerts in the browser', () => {
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`are asked for under the list and confirmed with the e-mailed link's button, on a ${size}`, async () => {
      const email = `${size}.alerts@example.com`
      const context = await browser.context(site.url, viewport)
      const page = await context.newPage()
      const errors = watchPageErrors(page)
      await page.goto('/analysis-days')
      const form = page.getByRole('region', { name: 'Tell me when the lab comes to my city' })
      // Mistakes show next to their fields.
      await form.getByLabel('Your e-mail address').fill('not-an-address')
      await form.getByLabel('City', { exact: true }).fill('www.example.com')
      await form.getByRole('button', { name: 'Tell me' }).click()
      await expect.poll(() => form.getByText('Enter the city in letters, such as Pune').isVisible()).toBe(true)
      expect(await form.getByLabel('Your e-mail address').getAttribute('aria-invalid')).toBe('true')
      await expectNoAxeViolations(page)
      await expectNoSidewaysScroll(page)
      await form.getByLabel('Your e-mail address').fill(email)
      await form.getByLabel('City', { exact: true }).fill('Mysuru')
      await form.getByRole('button', { name: 'Tell me' }).click()
      await expect.poll(() => form.getByRole('status').textContent()).toContain('Check your inbox to confirm.')
      await expectNoAxeViolations(page)
      await expectNoSidewaysScroll(page)

      await page.goto(await confirmPathFor(email))
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Confirm your alerts')
      await expectNoAxeViolations(page)
      await expectNoSidewaysScroll(page)
      await page.getByRole('button', { name: 'Confirm the alerts' }).click()
      await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Alerts confirmed')
      expect(await page.getByRole('status').innerText()).toContain('in Mysuru')
      await expectNoAxeViolations(page)
      expect(errors).toEqual([])
      await context.close()
    })
  }

  it('without JavaScript, the form answers at itself and the link’s button confirms', async () => {
    const context = await browser.context(site.url, PHONE, { javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/analysis-days')
    await page.getByRole('button', { name: 'Tell me' }).click()
    await page.waitForLoadState()
    expect(await page.getByLabel('Your e-mail address').getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByText('Enter the city, such as Pune').count()).toBe(1)
    await page.getByLabel('Your e-mail address').fill('plain@example.com')
    await page.getByLabel('City', { exact: true }).fill('Mysuru')
    await page.getByRole('button', { name: 'Tell me' }).click()
    await page.waitForLoadState()
    expect(page.url()).toMatch(/\/analysis-days#city-alert-section$/)
    expect(await page.getByRole('status').innerText()).toContain('Check your inbox to confirm.')
    await page.goto(await confirmPathFor('plain@example.com'))
    await page.getByRole('button', { name: 'Confirm the alerts' }).click()
    await page.waitForLoadState()
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Alerts confirmed')
    await context.close()
  })
})
