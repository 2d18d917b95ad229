import { describe, expect, it } from 'vitest'
import { referenceBands } from '~/db/schema'
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, PHONE, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { accountWithSwimmer, analysedSession, figureOn, findingOf } from '../support/family-analyses'
import { STAFF, useTestSite } from '../support/site'

// The public sample analysis in a real browser, at a phone's and a desktop's size: staff copy a
// family's published analysis with their agreement and publish it; a visitor reads it.

const browser = useBrowser()
let reference = ''
const site = useTestSite(
  {},
  {
    prepare: async (db) => {
      const owner = await accountWithSwimmer(db, { name: 'Priya Raman', email: 'priya.raman@example.com', age: 14 })
      await db.insert(referenceBands).values([
        { stroke: 'freestyle', distanceMetres: 50, metricKey: 'final_time', ageMin: 13, ageMax: 15, gender: 'any', level: 'District finalist', value: 33 },
        { stroke: 'freestyle', distanceMetres: 50, metricKey: 'final_time', ageMin: 13, ageMax: 15, gender: 'any', level: 'State finalist', value: 30.5 },
      ])
      const analysis = await analysedSession(db, owner, '2026-03-10', { metrics: { final_time: 31.2 }, publishedAt: new Date('2026-03-12T06:00:00Z'), summary: 'A strong start; the turns cost time.' })
      await findingOf(db, analysis.analysisId, 'Early breathing on the turn', 'Catch-up freestyle')
      reference = analysis.reference
    },
  },
)

describe('the sample analysis', () => {
  it('axe finds nothing on the staff’s pages and the public page, at both sizes', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const staff = await browser.context(site.url, viewport)
      const admin = await staff.newPage()
      const errors = watchPageErrors(admin)
      await admin.goto('/login')
      await signInWithForm(admin, STAFF, '**/admin')
      if (viewport === PHONE) {
        // Copied once, from the analysis's editor: the family's agreement is asked for first.
        await admin.goto(`/admin/bookings/${reference}/analysis`)
        await admin.getByText('Copy as a public sample…').click()
        const copy = admin.locator('form#copy-sample-form')
        await copy.getByRole('button', { name: 'Copy as a draft sample' }).click()
        await expect.poll(() => copy.getByText('A family’s analysis is shared only with their written agreement').count()).toBe(1)
        await expectNoAxeViolations(admin)
        await copy.getByLabel('The family agreed in writing to share this analysis anonymised').check()
        await copy.getByLabel('How and when the family agreed').fill('By e-mail on 3 May 2026')
        await copy.getByRole('button', { name: 'Copy as a draft sample' }).click()
        await admin.waitForURL('**/admin/sample-analysis')
        await admin.getByRole('button', { name: /Publish on the public page/ }).click()
        await expect.poll(() => admin.getByText('Published: on the public page').count()).toBe(1)
      } else {
        await admin.goto('/admin/sample-analysis')
      }
      await expect.poll(() => admin.getByRole('heading', { name: /Sample \d+: Sample swimmer, 14/ }).count()).toBe(1)
      await expectNoAxeViolations(admin)
      await expectNoSidewaysScroll(admin)
      expect(errors).toEqual([])

      const visitor = await browser.context(site.url, viewport)
      const page = await visitor.newPage()
      const pageErrors = watchPageErrors(page)
      await page.goto('/services')
      await page.getByRole('link', { name: 'See a sample analysis' }).click()
      await page.waitForURL('**/sample-analysis')
      await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Sample analysis' }).count()).toBe(1)
      expect(await page.getByText('Sample', { exact: true }).isVisible()).toBe(true)
      // The figure's standing said in words, its picture not read out; nothing speaks of a previous value.
      const figure = figureOn(page, 'Final time')
      expect(await figure.getByText('Reaches District finalist (33 s). Not yet State finalist (30.5 s).', { exact: true }).isVisible()).toBe(true)
      expect(await page.getByTestId('metrics').getByRole('img').count()).toBe(0)
      expect(await figure.innerText()).not.toMatch(/previous|last analysis|better|worse|change/i)
      await expectNoAxeViolations(page)
      await expectNoSidewaysScroll(page)
      expect(pageErrors).toEqual([])
      await staff.close()
      await visitor.close()
    }
  })
})
