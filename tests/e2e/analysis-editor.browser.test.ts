import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { addDays, addMonths, isoWeekday, labToday } from '~/lib/lab-time'
import { expectNoAxeViolations, LAPTOP, PHONE, useBrowser, watchPageErrors } from '../support/browser'
import { useTestSite } from '../support/site'

// Staff record and publish an analysis in a real browser: open it from a confirmed booking, add
// an event, enter its metrics, import a CSV file through its preview, add a finding with a drill,
// and publish; axe finds nothing on the editor at phone and desktop sizes.

const browser = useBrowser()
const site = useTestSite()

const farMonth = addMonths(labToday().slice(0, 7), 2)
const sessionDate = [0, 1, 2, 3, 4, 5, 6].map((offset) => addDays(`${farMonth}-08`, offset)).find((date) => isoWeekday(date) === 3)!
let reference: string

beforeAll(async () => {
  const admin = await site.sharedStaff()
  const hours = new URLSearchParams({ intent: 'create', from: sessionDate, to: sessionDate, weekdays: '3', startTime: '09:00', endTime: '13:00', slotDurationMinutes: '60', capacity: '2' })
  expect((await admin.post('/admin/availability', hours)).status).toBe(302)
  const made = await admin.post('/admin/bookings/new', { name: 'Kavya Iyer', swimmerName: '', email: 'kavya.iyer@example.com', phone: '9845012345', product: 'single_race', date: sessionDate, time: '10:00', origin: 'complimentary', amount: '', notes: '' })
  reference = /^\/admin\/bookings\/(SWP-\d{10})$/.exec(made.location!)![1]!
})

const toast = (page: Page, title: string) => expect.poll(() => page.getByText(title, { exact: true }).first().isVisible()).toBe(true)

/**
 * Axe at phone and desktop sizes, on the page as read from its top: scrolled to the very bottom of
 * a long admin page, the admin navigation (sticky within the page's frame) is pushed up under the
 * site's sticky header, which axe reports of its first links whatever the page.
 */
async function expectAccessibleAtBothSizes(page: Page) {
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.setViewportSize(PHONE)
  await expectNoAxeViolations(page)
  await page.setViewportSize(LAPTOP)
  await expectNoAxeViolations(page)
}

describe('the analysis editor', () => {
  it('staff open the analysis of a confirmed booking, record it, import a CSV with a preview, and publish it', async () => {
    const context = await browser.staff(site.url)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto(`/admin/bookings/${reference}`)
    await page.getByRole('link', { name: 'Open the analysis' }).click()
    await page.waitForURL(/\/analysis$/)
    await expectAccessibleAtBothSizes(page)
    await page.getByRole('button', { name: 'Start the analysis' }).click()
    await toast(page, 'Analysis started')

    const events = page.locator('#events')
    await events.getByLabel('Stroke').selectOption('freestyle')
    await events.getByLabel('Distance').selectOption('50')
    await events.getByRole('button', { name: 'Add the event' }).click()
    await expect.poll(() => events.getByRole('heading', { name: /50 m freestyle/ }).isVisible()).toBe(true)

    // A mistake shows next to its field as you type, before anything is sent.
    const finalTime = events.getByLabel(/^Final time \(s\)/)
    await finalTime.fill('fast')
    await finalTime.blur()
    await expect.poll(() => finalTime.getAttribute('aria-invalid')).toBe('true')
    await finalTime.fill('28.9')
    await events.getByLabel(/^Stroke rate \(strokes\/min\)/).fill('51')
    await events.getByLabel(/^Split at 25 m \(s\)/).fill('13.6')
    await events.getByRole('button', { name: 'Save the metrics of the 50 m freestyle' }).click()
    await toast(page, 'Metrics saved')
    await expect.poll(() => events.getByLabel(/^Stroke rate \(strokes\/min\)/).inputValue()).toBe('51')

    const csv = 'stroke,distance_m,metric,value,unit,better\nfreestyle,50,final_time,28.41,,\nfreestyle,50,Stroke rate,52.3,,\nfreestyle,50,Dolphin kick frequency,2.1,Hz,higher\n'
    const importing = page.locator('#import')
    await importing.getByLabel('CSV file').setInputFiles({ name: 'export.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    await importing.getByRole('button', { name: 'Preview the import' }).click()
    await expect.poll(() => importing.getByRole('heading', { name: 'Preview of export.csv' }).isVisible()).toBe(true)
    expect(await importing.getByRole('row', { name: /Final time/ }).textContent()).toContain('28.9 s → 28.41 s')
    expect(await importing.getByRole('row', { name: /Dolphin kick frequency/ }).textContent()).toContain('2.1 Hz (new)')
    await expectAccessibleAtBothSizes(page)
    // Nothing is saved until staff confirm.
    expect(await events.getByLabel(/^Final time \(s\)/).inputValue()).toBe('28.9')
    await importing.getByRole('button', { name: 'Import 3 values' }).click()
    await toast(page, 'Metrics imported')
    await expect.poll(() => events.getByLabel(/^Final time \(s\)/).inputValue()).toBe('28.41')
    expect(await events.getByLabel(/^Dolphin kick frequency \(Hz\)/).inputValue()).toBe('2.1')

    const findings = page.locator('#findings')
    await findings.getByLabel('What you found').fill('Early breathing on the turn')
    await findings.getByLabel('Why it matters').fill('Lifting the head into the wall costs speed off it.')
    await findings.getByRole('radio', { name: 'High' }).check()
    await findings.getByRole('button', { name: 'Add the finding' }).click()
    await toast(page, 'Finding added')
    await findings.getByText('Add a drill').click()
    await findings.getByLabel('Drill', { exact: true }).fill('Tumble turns without breathing')
    await findings.getByLabel('How to do it').fill('10 × 25 m, no breath in the last 5 m.')
    await findings.getByLabel(/^Video link/).fill('https://video.example/turns')
    await findings.getByRole('button', { name: 'Add the drill' }).click()
    await toast(page, 'Drill added')
    await expect.poll(() => findings.getByRole('link', { name: 'Video of Tumble turns without breathing (opens in a new tab)' }).isVisible()).toBe(true)
    await expect.poll(() => page.getByRole('link', { name: 'Upload and arrange the clips' }).getAttribute('href')).toBe(`/admin/bookings/${reference}/analysis/clips`)

    // The session is weeks away: staff are asked before the family sees anything.
    await page.locator('#publish').getByRole('button', { name: 'Publish', exact: true }).click()
    const question = page.getByRole('group', { name: /^This session has not happened yet \(it starts on \w+day, .+\)\. Publish anyway\?$/ })
    await expect.poll(() => question.isVisible()).toBe(true)
    await expectAccessibleAtBothSizes(page)
    await question.getByRole('button', { name: 'Publish anyway' }).click()
    await toast(page, 'Analysis published')
    await expect.poll(() => page.getByText(/^Published on /).first().isVisible()).toBe(true)
    await expectAccessibleAtBothSizes(page)
    expect(errors).toEqual([])

    // The family, who booked without an account, is e-mailed the private link to their booking.
    const mail = await site.sink.waitForMailTo('kavya.iyer@example.com', /Kavya's race analysis is ready/)
    expect(mail.text).toMatch(/\/booking\/view\?ref=SWP-\d{10}/)
    await context.close()
    // A long journey with axe four times: room for a busy machine.
  }, 180_000)

  it('the reference bands page is accessible, and a band added there is listed', async () => {
    const context = await browser.staff(site.url)
    const page = await context.newPage()
    await page.goto('/admin')
    await page.getByRole('link', { name: 'Reference bands' }).click()
    await page.waitForURL(/\/admin\/reference-bands$/)
    await page.getByLabel('Youngest age').fill('11')
    await page.getByLabel('Oldest age').fill('12')
    await page.getByLabel('Level').fill('State finalist')
    await page.getByLabel('Value').fill('30.5')
    await page.getByRole('button', { name: 'Add the band' }).click()
    await toast(page, 'Band added')
    await expect.poll(() => page.getByRole('cell', { name: 'State finalist', exact: true }).isVisible()).toBe(true)
    await expectAccessibleAtBothSizes(page)
    await context.close()
  })
})
