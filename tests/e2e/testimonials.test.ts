import { describe, expect, it } from 'vitest'
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE, useBrowser, watchPageErrors } from '../support/browser'
import { addPortrait } from '../support/media'
import { useTestSite } from '../support/site'

// A testimonial asked for by staff, agreed by the person, and shown on the home page, in a real
// browser at a phone's and a desktop's width.

const browser = useBrowser()
const site = useTestSite(
  {},
  {
    prepare: async (db) => {
      await addPortrait(db, { title: 'Nila at the pool', altText: 'Nila Rao holding her swim cap', status: 'ready' })
    },
  },
)

const QUOTE = 'The lab showed me exactly where my catch slipped.'

describe('testimonials', () => {
  it('axe finds nothing on the staff page, the agreement page or the home page’s section, at both sizes', async () => {
    const admin = await browser.staff(site.url)
    const staffPage = await admin.newPage()
    const staffErrors = watchPageErrors(staffPage)
    await staffPage.goto('/admin/testimonials')
    const form = staffPage.locator('form', { has: staffPage.getByRole('button', { name: 'Save and e-mail the request' }) })
    await form.getByLabel('Their words').fill(QUOTE)
    await form.getByLabel('Name to show').fill('Nila Rao')
    await form.getByLabel('Role').fill('national-level swimmer')
    await form.getByLabel('Photo (optional)').selectOption({ label: 'Nila at the pool' })
    await form.getByLabel('E-mail address to ask').fill('nila.parent@example.com')
    await form.getByLabel('The speaker is under 18: ask their parent or guardian').check()
    await form.getByRole('button', { name: 'Save and e-mail the request' }).click()
    await expect.poll(() => staffPage.getByText('Waiting for an answer').count()).toBe(1)
    await expectNoAxeViolations(staffPage)
    await staffPage.setViewportSize(PHONE)
    await expectNoSidewaysScroll(staffPage)
    await expectNoAxeViolations(staffPage)
    expect(staffErrors).toEqual([])

    const mail = await site.sink.waitForMailTo('nila.parent@example.com', /words on the/)
    const path = /\/testimonials\/[A-Za-z0-9_-]{43}/.exec(mail.text)![0]
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await browser.context(site.url, viewport)
      const page = await context.newPage()
      const errors = watchPageErrors(page)
      await page.goto(path)
      await expect.poll(() => page.getByRole('img', { name: 'Nila Rao holding her swim cap' }).count()).toBeGreaterThan(0)
      await expect.poll(() => page.getByText('as their parent or guardian').count()).toBe(1)
      await expectNoAxeViolations(page)
      if (viewport === PHONE) await expectNoSidewaysScroll(page)
      if (viewport === DESKTOP) {
        await page.getByRole('button', { name: 'Yes, show it' }).click()
        await page.waitForURL(`${site.url}/`)
      } else await context.close()
      // The test's portrait is a library row without files: only its images may fail to load.
      expect(errors.filter((error) => !error.includes('Failed to load resource'))).toEqual([])
    }

    for (const viewport of [PHONE, DESKTOP]) {
      const context = await browser.context(site.url, viewport)
      const page = await context.newPage()
      await page.goto('/')
      const section = page.getByRole('region', { name: 'What families say' })
      await expect.poll(() => section.locator('blockquote').textContent()).toContain(QUOTE)
      await expect.poll(() => section.locator('figcaption').textContent()).toContain('Nila Rao')
      await expectNoAxeViolations(page)
      if (viewport === PHONE) await expectNoSidewaysScroll(page)
      await context.close()
    }
  })
})
