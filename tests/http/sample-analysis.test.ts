import { describe, expect, it } from 'vitest'
import { eventually } from '../support/eventually'
import { accountWithSwimmer, analysedSession, clipOf, FAMILY_PASSWORD, findingOf } from '../support/family-analyses'
import { useTestSite } from '../support/site'
import { decodeHtml, text, Visitor } from '../support/visitor'

// "See what you get": a family's published analysis copied by staff as the public sample, with the
// family's agreement recorded, published, and withdrawn; the public page and the links to it, as a
// browser without JavaScript gets them.

const family = { name: 'Priya Raman', email: 'priya.raman@example.com' }
const the = {} as { analysisId: number; reference: string; clipId: number; swimmerId: number }

const site = useTestSite(
  {},
  {
    prepare: async (db) => {
      const owner = await accountWithSwimmer(db, { ...family, age: 14 })
      const analysis = await analysedSession(db, owner, '2026-03-10', { metrics: { final_time: 31.2 }, publishedAt: new Date('2026-03-12T06:00:00Z'), summary: 'A strong start; the turns cost time.' })
      await findingOf(db, analysis.analysisId, 'Early breathing on the turn', 'Catch-up freestyle')
      Object.assign(the, { analysisId: analysis.analysisId, reference: analysis.reference, swimmerId: owner.swimmerId, clipId: await clipOf(db, analysis.analysisId, 'Underwater start', [{ kind: 'start', seconds: 1 }]) })
    },
  },
)

const LINK = 'See a sample analysis'
const editor = () => `/admin/bookings/${the.reference}/analysis`

/** Whether each page that links to the sample shows the link: anonymous on /services, /pricing and /booking, the family signed in on /book-slot. */
async function linksShown(signedIn: Visitor) {
  const anonymous = new Visitor(site.url)
  const pages = await Promise.all([anonymous.get('/services'), anonymous.get('/pricing'), anonymous.get('/booking'), signedIn.get('/book-slot')])
  return pages.map((page) => text(page.html).includes(LINK) && page.html.includes('href="/sample-analysis"'))
}

async function familySignedIn() {
  const visitor = new Visitor(site.url)
  expect((await visitor.post('/login', { email: family.email, password: FAMILY_PASSWORD, website_url: '' })).status).toBe(302)
  return visitor
}

describe('the public sample analysis', () => {
  it('is not found, and not linked, until staff copy a published analysis with the family’s agreement and publish it; withdrawn, it is gone again', async () => {
    const visitor = new Visitor(site.url)
    const signedIn = await familySignedIn()
    expect((await visitor.get('/sample-analysis')).status).toBe(404)
    expect(await linksShown(signedIn)).toEqual([false, false, false, false])
    expect((await visitor.get('/sitemap.xml')).html).not.toContain('/sample-analysis')

    const admin = await site.sharedStaff()
    expect(text((await admin.get(editor())).html)).toContain('Copy as a public sample…')
    // The agreement is recorded, or nothing is copied.
    const unticked = await admin.post(editor(), { intent: 'copy-sample', source: 'family_shared', agreementNote: 'By e-mail on 3 May 2026' })
    expect(unticked.status).toBe(400)
    expect(text(unticked.html)).toContain('A family’s analysis is shared only with their written agreement')
    expect(text((await admin.get('/admin/sample-analysis')).html)).toContain('No samples yet.')
    const copied = await admin.post(editor(), { intent: 'copy-sample', source: 'family_shared', agreed: 'on', agreementNote: 'By e-mail on 3 May 2026' })
    expect([copied.status, copied.location]).toEqual([302, '/admin/sample-analysis'])

    const staffPage = text((await admin.get('/admin/sample-analysis')).html)
    expect(staffPage).toContain('Sample swimmer, 14')
    expect(staffPage).toContain('In writing: By e-mail on 3 May 2026')
    expect(staffPage).toContain(`by ${'staff@lab.example'}`)
    const sampleId = /Sample (\d+): Sample swimmer/.exec(staffPage)![1]!
    // A draft is not shown.
    expect((await visitor.get('/sample-analysis')).status).toBe(404)

    expect((await admin.post('/admin/sample-analysis', { intent: 'publish', sampleId })).status).toBe(302)
    const page = await eventually(
      () => visitor.get('/sample-analysis'),
      (response) => response.status === 200,
    )
    const shown = text(page.html)
    expect(shown).toContain('Sample analysis')
    expect(shown).toContain('This is a sample of the results page every family receives, shared with the family’s agreement and without their name.')
    expect(shown).toContain('Sample swimmer, 14')
    expect(shown).toContain('A strong start; the turns cost time.')
    expect(shown).toContain('50 m freestyle')
    expect(shown).toContain('31.2 s')
    expect(shown).toContain('Early breathing on the turn')
    expect(shown).toContain('Footage is part of every real analysis')
    expect(decodeHtml(page.html)).toContain('href="/book"')
    // Nothing of the family's: no name, booking, analysis, swimmer or clip, in the page or its data.
    for (const secret of ['Priya', 'Raman', family.email, the.reference, `/analyses/${the.analysisId}`, '/analyses/clips/', `/swimmers/${the.swimmerId}`, 'Underwater start', '2026-03-10', 'March 2026']) expect(page.html, secret).not.toContain(secret)
    expect(page.headers.get('Cache-Control') ?? '').not.toContain('no-store')
    expect(page.html).not.toContain('noindex')

    expect(await eventually(() => linksShown(signedIn), (shownOn) => shownOn.every(Boolean))).toEqual([true, true, true, true])
    expect((await visitor.get('/sitemap.xml')).html).toContain('/sample-analysis</loc>')

    // Editing or unpublishing the family's analysis afterwards does not reach the sample.
    expect((await admin.post(editor(), { intent: 'details', poolLength: '50', summary: 'Priya Raman, written afterwards.' })).status).toBe(302)
    expect(text((await new Visitor(site.url).get('/sample-analysis?fresh')).html)).toContain('A strong start; the turns cost time.')

    expect((await admin.post('/admin/sample-analysis', { intent: 'withdraw', sampleId })).status).toBe(302)
    await eventually(
      () => visitor.get('/sample-analysis'),
      (response) => response.status === 404,
    )
    expect(await eventually(() => linksShown(signedIn), (shownOn) => !shownOn.some(Boolean))).toEqual([false, false, false, false])
  })
})
