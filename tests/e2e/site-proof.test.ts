import { describe, expect, it } from 'vitest'
import { chooseUnlisted, DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { accountWithSwimmer } from '../support/family-analyses'
import { analysisOf, campHeld } from '../support/figures'
import { addPhoto } from '../support/media'
import { STAFF, useTestSite } from '../support/site'

// The lab's numbers and its partners and venues, from the staff pages that set them to the home
// page that shows them, in a real browser at phone and desktop sizes.

const browser = useBrowser()
let waitingLogo = 0
const site = useTestSite(
  {},
  {
    prepare: async (db) => {
      const asha = await accountWithSwimmer(db, { name: 'Asha Rao', email: 'asha@example.com' })
      await analysisOf(db, asha, new Date('2025-05-01T10:00:00Z'))
      await campHeld(db, 'MAY24', '2024-05-06', '2024-05-10')
      await addPhoto(db, 'partner', { title: 'Aquatic Club logo', altText: 'Aquatic Club: a wave in a circle', status: 'ready' })
      await addPhoto(db, 'venue', { title: 'The pool', altText: 'The 50 m pool at Basavanagudi', status: 'ready' })
      waitingLogo = (await addPhoto(db, 'partner', { title: 'Still processing', altText: 'A logo', status: 'processing' })).id
    },
  },
)

/** The page's errors, less the logos' files: the test library's photos are rows without files. */
const withoutMissingLogos = (errors: string[]) => errors.filter((error) => !error.includes('404'))

describe('numbers, partners and venues', () => {
  it('axe finds nothing on /admin/partners, the settings panel and the home page strips, at phone and desktop sizes', async () => {
    for (const [viewport, size] of [[PHONE, 'phone'], [DESKTOP, 'desktop']] as const) {
      const admin = await browser.context(site.url, viewport)
      const page = await admin.newPage()
      await page.goto('/login')
      await signInWithForm(page, STAFF, '**/admin')
      const errors = watchPageErrors(page)

      await page.goto('/admin/partners')
      const add = page.locator('form#partner-new')
      await add.getByLabel('Kind').selectOption(size === 'phone' ? 'venue' : 'partner')
      await add.getByLabel('Name').fill(size === 'phone' ? 'Basavanagudi Aquatic Centre' : 'Aquatic Club')
      await add.getByLabel('Website').fill('https://club.example.in')
      await add.getByLabel('Logo').selectOption({ label: size === 'phone' ? 'The pool' : 'Aquatic Club logo' })
      await add.getByRole('button', { name: 'Add it' }).click()
      await expect.poll(() => page.getByRole('heading', { level: 3 }).allTextContents()).toContain(size === 'phone' ? 'Basavanagudi Aquatic Centre' : 'Aquatic Club')
      // A logo the list does not offer, as a page opened before it was listed would send it: refused next to the field.
      await add.getByLabel('Kind').selectOption('partner')
      await add.getByLabel('Name').fill('Swim Federation')
      await chooseUnlisted(add.getByLabel('Logo'), waitingLogo)
      await add.getByRole('button', { name: 'Add it' }).click()
      await expect.poll(() => add.getByText('That photo is still being processed').count()).toBe(1)
      await expectNoAxeViolations(page)
      if (size === 'desktop') {
        await page.getByRole('button', { name: 'Move up Aquatic Club' }).click()
        await expect.poll(() => page.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Aquatic Club', 'Basavanagudi Aquatic Centre'])
      }

      await page.goto('/admin/settings#figures')
      const panel = page.locator('#figures')
      await panel.getByLabel('Swimmers analysed: show from').fill('1')
      await panel.getByLabel('Analyses delivered: show from').fill('1')
      await panel.getByLabel('Camps run: show from').fill('x')
      await panel.getByRole('button', { name: 'Save the thresholds' }).click()
      await expect.poll(() => panel.getByText('Enter a whole number, or 0 to never show this number').count()).toBe(1)
      await expectNoAxeViolations(page)
      await panel.getByLabel('Camps run: show from').fill('1')
      await panel.getByRole('button', { name: 'Save the thresholds' }).click()
      // Saved at phone size already: at desktop size the same values change nothing.
      await expect.poll(() => page.getByText(size === 'phone' ? 'Thresholds saved' : 'Nothing to save').count()).toBeGreaterThan(0)
      expect(withoutMissingLogos(errors)).toEqual([])

      const visitor = await browser.context(site.url, viewport)
      const home = await visitor.newPage()
      await home.goto('/')
      const figures = home.getByRole('region', { name: 'The lab in numbers' })
      await expect.poll(() => figures.getByRole('listitem').allTextContents()).toEqual(['1 swimmer analysed', '1 analysis delivered', '1 camp run'])
      expect(await home.getByRole('heading', { name: 'Trusted by 1 swimmer and their coaches' }).count()).toBe(1)
      const strip = home.getByRole('region', { name: 'Partners and venues' })
      const venue = 'The 50 m pool at Basavanagudi (opens the website of Basavanagudi Aquatic Centre)'
      const club = 'Aquatic Club: a wave in a circle (opens the website of Aquatic Club)'
      expect(await strip.getByRole('link').count()).toBe(size === 'phone' ? 1 : 2)
      for (const name of size === 'phone' ? [venue] : [club, venue]) expect(await strip.getByRole('link', { name }).count(), name).toBe(1)
      await expectNoAxeViolations(home)
      await expectNoSidewaysScroll(home)
      await admin.close()
      await visitor.close()
    }
  })
})
