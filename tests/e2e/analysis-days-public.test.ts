import type { Page } from 'playwright-core'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { analysisDays, venues } from '~/db/schema'
import { addDays, addMinutes, addSeconds, labDateParts, labToday } from '~/lib/lab-time'
import { ANALYSIS_DAY_HOST_LINK, privateLinkPath } from '~/lib/private-links.server'
import { publishedDay, seedAnalysisDays } from '../support/analysis-days'
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE, useBrowser, watchPageErrors } from '../support/browser'
import { useTestSite } from '../support/site'

// Analysis days away from the lab in a real browser, at a phone's and a desktop's size: the host club
// books its kept seat through its private link before the public release and pays; once the release
// has come, a parent finds the day on the list, picks a slot, pays through the sandbox gateway and
// sees the booking confirmed; and a browser without JavaScript books all the same.

const browser = useBrowser()

const HOSTED_DAY = addDays(labToday(), 8)
const OPEN_DAY = addDays(labToday(), 9)
/** How long after the site's data is written the hosted day opens to everyone: the host books before it. */
const RELEASE_AFTER_SECONDS = 80

const ids = { hosted: 0, open: 0 }
let hostLink = ''

const site = useTestSite(
  {},
  {
    async prepare(db, installation) {
      const now = new Date()
      await seedAnalysisDays(db, installation, async (organiser) => {
        const soon = labDateParts(addMinutes(now, 5))
        ids.hosted = (await publishedDay(organiser, HOSTED_DAY, now, { hostSeats: 2, releaseDate: soon.date, releaseTime: soon.time }, 'Balewadi Aquatics')).dayId
        ids.open = (await publishedDay(organiser, OPEN_DAY, now, {}, 'Chamundi Pool')).dayId
        hostLink = await privateLinkPath(ANALYSIS_DAY_HOST_LINK, ids.hosted)
      })
      await db.update(venues).set({ city: 'Mysuru', address: 'Chamundi Vihar Stadium' }).where(eq(venues.name, 'Chamundi Pool'))
      // The release, to the second: soon enough to wait for, late enough for the host to book first.
      await db.update(analysisDays).set({ releaseAt: addSeconds(now, RELEASE_AFTER_SECONDS) }).where(eq(analysisDays.id, ids.hosted))
      await db.update(analysisDays).set({ releaseAt: addMinutes(now, -1) }).where(eq(analysisDays.id, ids.open))
    },
  },
)

/** The booking form's details as a family fills them in. */
async function fillDetails(page: Page, { slot, name, email }: { slot: string; name: string; email: string }) {
  await page.getByRole('radio', { name: new RegExp(`^${slot} to `) }).check()
  await page.getByLabel('Full Name').fill(name)
  await page.getByLabel('Email').fill(email)
}

/**
 * Pays on the sandbox gateway's page and comes back to the booking's status page. Every journey
 * here pays: the browsers share one address, whose unpaid holds the site limits.
 */
async function pay(page: Page) {
  await page.waitForURL(/\/sandbox-gateway\/checkout\//)
  await page.getByRole('button', { name: /test success/ }).click()
  await page.waitForURL(/\/booking\?step=3/)
}

/** Pays, then waits for the booking confirmed. */
async function payAndConfirm(page: Page) {
  await pay(page)
  await expect.poll(() => page.getByRole('heading', { name: 'Booking Confirmed!' }).isVisible(), { timeout: 20_000 }).toBe(true)
}

describe('analysis days in the browser', () => {
  it('the host club books its kept seat through its private link before the release, on a phone', async () => {
    const context = await browser.context(site.url, PHONE)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    await page.goto(hostLink)
    await expect.poll(() => page.getByText('Booking for Pune Swim Club: 2 of 2 seats kept for you are left.').isVisible()).toBe(true)
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Competition Race Analysis at Balewadi Aquatics')
    await expectNoAxeViolations(page)
    await expectNoSidewaysScroll(page)
    await fillDetails(page, { slot: '9:00 AM', name: 'Meera Kulkarni', email: 'meera@puneswim.example' })
    await page.getByRole('button', { name: 'Book and pay' }).click()
    await payAndConfirm(page)
    expect(await page.locator('main').innerText()).toMatch(/Date and time\s+\w+, \d+ \w+ \d{4}, 9:00 AM - 9:20 AM/)
    // Where: the venue in Pune with its address, and its map as a link.
    const details = page.getByRole('region', { name: 'Booking details' })
    expect(await details.innerText()).toContain('Balewadi Aquatics, Shree Shiv Chhatrapati Sports Complex, Balewadi, Pune')
    expect(await details.getByRole('link', { name: 'Open the map' }).getAttribute('href')).toBe('https://maps.example/balewadi')
    await expectNoAxeViolations(page)
    await expectNoSidewaysScroll(page)
    await page.goto(hostLink)
    await expect.poll(() => page.getByText('Booking for Pune Swim Club: 1 of 2 seats kept for you are left.', { exact: false }).isVisible()).toBe(true)
    expect(errors).toEqual([])
    await context.close()

    // Another of the club's families, in a browser without JavaScript: the link's page hides its
    // address from other sites, and its own form is still sent as this site's.
    const plain = await browser.context(site.url, PHONE, { javaScriptEnabled: false })
    const form = await plain.newPage()
    await form.goto(hostLink)
    await fillDetails(form, { slot: '9:20 AM', name: 'Nikhil Patil', email: 'nikhil@puneswim.example' })
    await form.getByRole('button', { name: 'Book and pay' }).click()
    await pay(form)
    await form.goto(hostLink)
    expect(await form.locator('main').innerText()).toContain('Booking for Pune Swim Club: 0 of 2 seats kept for you are left.')
    await plain.close()
  })

  it('the list and a day’s page read well at both sizes, and a day not released yet says when it opens', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await browser.context(site.url, viewport)
      const page = await context.newPage()
      const errors = watchPageErrors(page)
      await page.goto('/analysis-days')
      expect(await page.getByRole('heading', { level: 2 }).allInnerTexts()).toEqual(expect.arrayContaining(['Mysuru', 'Pune']))
      await expectNoAxeViolations(page)
      await expectNoSidewaysScroll(page)
      await page.goto(`/analysis-days/${ids.hosted}`)
      expect(await page.getByRole('status').innerText()).toMatch(/^Booking opens to everyone at \d+:\d\d [AP]M IST on /)
      expect(await page.getByRole('radio').count()).toBeGreaterThan(0)
      await expectNoAxeViolations(page)
      await page.goto(`/analysis-days/${ids.open}`)
      await expectNoAxeViolations(page)
      await expectNoSidewaysScroll(page)
      expect(errors).toEqual([])
      await context.close()
    }
  })

  it('without JavaScript, the booking form is sent and leads to the gateway', async () => {
    const context = await browser.context(site.url, PHONE, { javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto(`/analysis-days/${ids.open}`)
    await page.getByRole('button', { name: 'Book and pay' }).click()
    await page.waitForLoadState()
    // Sent empty, the form comes back with the messages next to its fields.
    expect(await page.getByText('Please choose a time slot.').count()).toBe(1)
    expect(await page.getByLabel('Full Name').getAttribute('aria-invalid')).toBe('true')
    await fillDetails(page, { slot: '10:00 AM', name: 'Ravi Menon', email: 'ravi.menon@example.com' })
    await page.getByRole('button', { name: 'Book and pay' }).click()
    await page.waitForURL(/\/sandbox-gateway\/checkout\//)
    expect(await page.locator('body').innerText()).toContain('₹1,500.00')
    await pay(page)
    await context.close()
  })

  it('a slot taken while a parent was deciding is refused next to the slots, which are read again and show it Full', async () => {
    const deciding = await browser.context(site.url, PHONE)
    const page = await deciding.newPage()
    const errors = watchPageErrors(page)
    await page.goto(`/analysis-days/${ids.open}`)
    await fillDetails(page, { slot: '11:00 AM', name: 'Asha Rao', email: 'asha.rao@example.com' })
    // Meanwhile another family books that slot and goes to pay.
    const quicker = await browser.context(site.url, DESKTOP)
    const other = await quicker.newPage()
    await other.goto(`/analysis-days/${ids.open}`)
    await fillDetails(other, { slot: '11:00 AM', name: 'Nikhil Das', email: 'nikhil.das@example.com' })
    await other.getByRole('button', { name: 'Book and pay' }).click()
    await pay(other)
    await quicker.close()

    await page.getByRole('button', { name: 'Book and pay' }).click()
    await expect.poll(() => page.getByText('Sorry, that slot was taken while you were deciding. Please choose another.').isVisible()).toBe(true)
    expect(await page.getByRole('radio', { name: /^11:00 AM to 11:20 AM Full/ }).isDisabled()).toBe(true)
    expect(await page.getByLabel('Full Name').inputValue()).toBe('Asha Rao')
    await expectNoAxeViolations(page)
    // Another slot, and on to pay.
    await page.getByRole('radio', { name: /^11:20 AM to / }).check()
    await page.getByRole('button', { name: 'Book and pay' }).click()
    await pay(page)
    // The refusal is the page's answer (409), not a fault of the page.
    expect(errors.filter((error) => !error.includes('409'))).toEqual([])
    await deciding.close()
  })

  it('once released, a parent finds the day on the list, picks a slot, pays and sees the booking confirmed, on a desktop', async () => {
    const context = await browser.context(site.url, DESKTOP)
    const page = await context.newPage()
    const errors = watchPageErrors(page)
    // The release comes at its time: until then the page says when (its form shown, to be ready).
    await expect
      .poll(
        async () => {
          await page.goto(`/analysis-days/${ids.hosted}`)
          return page.getByText('Booking opens to everyone at').count()
        },
        { timeout: (RELEASE_AFTER_SECONDS + 60) * 1000, interval: 5000 },
      )
      .toBe(0)
    await page.goto('/analysis-days')
    await page.getByRole('link', { name: /^See the slots and book\s*: Competition Race Analysis at Balewadi Aquatics,/ }).click()
    await page.waitForURL(`**/analysis-days/${ids.hosted}`)
    // The host's slots are sold.
    expect(await page.getByRole('radio', { name: /^9:00 AM to 9:20 AM Full/ }).isDisabled()).toBe(true)
    expect(await page.getByRole('radio', { name: /^9:20 AM to 9:40 AM Full/ }).isDisabled()).toBe(true)
    await expectNoAxeViolations(page)
    await page.getByRole('radio', { name: /^9:40 AM to / }).check()
    await page.getByLabel('Full Name').fill('Kavya Nair')
    await page.getByLabel('Email').fill('kavya@example.com')
    await page.getByRole('radio', { name: 'Someone else' }).check()
    await page.getByLabel("Swimmer's name").fill('Anika Nair')
    await page.getByLabel("Swimmer's age").fill('11')
    // Under 18: the parent's declaration, asked for before anything is held.
    await page.getByRole('button', { name: 'Book and pay' }).click()
    await expect.poll(() => page.getByText("Please confirm that you are the swimmer's parent or guardian and agree to the Privacy Policy").isVisible()).toBe(true)
    await expectNoAxeViolations(page)
    await page.getByRole('checkbox', { name: /parent or legal guardian/ }).check()
    await page.getByRole('button', { name: 'Book and pay' }).click()
    await payAndConfirm(page)
    expect(await page.locator('main').innerText()).toMatch(/Swimmer\s+Anika Nair[^]*9:40 AM - 10:00 AM/)
    await expectNoAxeViolations(page)
    expect(errors).toEqual([])
    await context.close()
  }, (RELEASE_AFTER_SECONDS + 120) * 1000)
})
