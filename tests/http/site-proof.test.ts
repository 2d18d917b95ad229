import { describe, expect, it } from 'vitest'
import { partners, type MediaVariant } from '~/db/schema'
import { accountWithSwimmer } from '../support/family-analyses'
import { analysisOf, campHeld } from '../support/figures'
import { addPhoto } from '../support/media'
import { between, section, textOf } from '../support/page-text'
import { useTestSite } from '../support/site'
import { fieldState, Visitor } from '../support/visitor'

// The proof a parent can check on the home and about pages: the lab's numbers, counted from its
// records and shown only from the thresholds staff set, and its partners and venues with their logos.

const published = new Date('2025-05-01T10:00:00Z')
const photos = {} as Record<'club' | 'pool' | 'hidden' | 'waiting' | 'spare', { id: number; variants: MediaVariant[] }>

const site = useTestSite(
  {},
  {
    prepare: async (db) => {
      // 3 swimmers analysed (one of them twice, one a guest's child), 4 analyses delivered and a draft, 2 camps run.
      const asha = await accountWithSwimmer(db, { name: 'Asha Rao', email: 'asha@example.com' })
      const ravi = await accountWithSwimmer(db, { name: 'Ravi Iyer', email: 'ravi@example.com' })
      const meera = await accountWithSwimmer(db, { name: 'Meera Das', email: 'meera@example.com' })
      await analysisOf(db, asha, published)
      await analysisOf(db, asha, published)
      await analysisOf(db, ravi, published)
      await analysisOf(db, { swimmerId: null, name: 'Kavya', email: 'parent@example.com' }, published)
      await analysisOf(db, meera, null)
      await campHeld(db, 'MAY24', '2024-05-06', '2024-05-10')
      await campHeld(db, 'OCT24', '2024-10-07', '2024-10-11')

      photos.club = await addPhoto(db, 'partner', { title: 'Aquatic Club logo', altText: 'Aquatic Club: a wave in a circle', status: 'ready' })
      photos.pool = await addPhoto(db, 'venue', { title: 'The pool', altText: '', decorative: true, status: 'ready' })
      photos.hidden = await addPhoto(db, 'partner', { title: 'Trust logo', altText: 'Hidden Trust', status: 'ready' })
      photos.waiting = await addPhoto(db, 'partner', { title: 'Still processing', altText: 'A logo', status: 'processing' })
      photos.spare = await addPhoto(db, 'partner', { title: 'Federation logo', altText: 'Swim Federation', status: 'ready' })
      await db.insert(partners).values([
        { kind: 'partner', name: 'Aquatic Club', link: 'https://club.example.in/', logoId: photos.club.id, position: 1 },
        { kind: 'venue', name: 'Basavanagudi Aquatic Centre', logoId: photos.pool.id, position: 2 },
        { kind: 'partner', name: 'Hidden Trust', link: 'https://trust.example.in/', logoId: photos.hidden.id, position: 3, shown: false },
      ])
    },
  },
)

/** The home page's main content as an anonymous visitor gets it (from the page cache when it holds it), scripts and data left out. */
async function home() {
  const { html } = await new Visitor(site.url).get('/')
  return between(html, '<main', '</main>').replace(/<script[\s\S]*?<\/script>/g, '')
}

/** The numbers the home page shows, as a visitor reads them. */
async function figuresShown() {
  const main = await home()
  if (!main.includes('id="figures-heading"')) return []
  return [...section(main, 'figures-heading').matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) => textOf(match[1]!))
}

/** The why section's points, by their headings. */
async function whyPoints() {
  return [...section(await home(), 'why-heading').matchAll(/<h3[^>]*>([\s\S]*?)<\/h3>/g)].map((match) => textOf(match[1]!))
}

const thresholds = (swimmers: number, analyses: number, camps: number) => ({ intent: 'figures', swimmersAnalysedThreshold: String(swimmers), analysesDeliveredThreshold: String(analyses), campsRunThreshold: String(camps) })

describe("the lab's numbers on the home page", () => {
  it('shows none below the thresholds a new installation starts with, and no trust it cannot back', async () => {
    const main = await home()
    expect(main).not.toContain('figures-heading')
    expect(textOf(main)).not.toContain('Trusted by')
    expect(await whyPoints()).toEqual(['First of Its Kind in India', 'Sports Science & Technology Powered', 'Personalized Reports & Insights'])
  })

  it('shows each number the records reach at or above its threshold, and the trust point with the swimmers counted', async () => {
    const admin = await site.sharedStaff()
    expect((await admin.post('/admin/settings', thresholds(3, 5, 2))).status).toBe(302)
    await expect.poll(figuresShown).toEqual(['3 swimmers analysed', '2 camps run'])
    expect(await whyPoints()).toContain('Trusted by 3 swimmers and their coaches')

    expect((await admin.post('/admin/settings', thresholds(4, 4, 0))).status).toBe(302)
    await expect.poll(figuresShown).toEqual(['4 analyses delivered'])
    expect(textOf(await home())).not.toContain('Trusted by')

    expect((await admin.post('/admin/settings', thresholds(0, 0, 0))).status).toBe(302)
    await expect.poll(figuresShown).toEqual([])
  })

  it('tells staff the counts beside the thresholds, and refuses a threshold that is not a whole number next to its field', async () => {
    const admin = await site.sharedStaff()
    const page = (await admin.get('/admin/settings')).html
    const panel = textOf(section(page, 'figures-heading'))
    expect(panel).toContain('Now 3 swimmers analysed')
    expect(panel).toContain('Now 4 analyses delivered')
    expect(panel).toContain('Now 2 camps run')

    const refused = await admin.post('/admin/settings', { ...thresholds(3, 5, 2), campsRunThreshold: '-2' })
    expect(refused.status).toBe(400)
    expect(fieldState(section(refused.html, 'figures-heading'), 'campsRunThreshold')).toEqual({ invalid: true, message: 'Enter a whole number, or 0 to never show this number' })
  })
})

/** Each logo of a page's partners strip. */
async function partnersOn(path: string) {
  const { html } = await new Visitor(site.url).get(path)
  const main = between(html, '<main', '</main>').replace(/<script[\s\S]*?<\/script>/g, '')
  if (!main.includes('id="partners-heading"')) return []
  return [...section(main, 'partners-heading').matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) => match[1]!)
}

describe('partners and venues', () => {
  it('shows the shown ones on the home and about pages, each logo linked to its site when it has one', async () => {
    for (const path of ['/', '/about']) {
      const [club, pool, ...rest] = await partnersOn(path)
      expect(rest, path).toEqual([])
      expect(club).toMatch(/^<a href="https:\/\/club\.example\.in\/" rel="noopener noreferrer"/)
      expect(club).toContain('sizes="160px"')
      expect(club).toContain('alt="Aquatic Club: a wave in a circle"')
      expect(textOf(club!)).toBe('(opens the website of Aquatic Club)')
      // A decorative venue photo is named by the venue; without a link, no link.
      expect(pool).not.toContain('<a ')
      expect(pool).toContain('alt="Basavanagudi Aquatic Centre"')
    }
  })

  it('lets staff add one with a usable logo only, the refusal next to the logo', async () => {
    const admin = await site.sharedStaff()
    const form = { intent: 'add', kind: 'partner', name: 'Swim Federation', link: 'https://federation.example.in' }
    const refused = await admin.post('/admin/partners', { ...form, logoId: String(photos.waiting.id) })
    expect(refused.status).toBe(400)
    expect(fieldState(between(refused.html, 'id="partner-new"', '</form>'), 'logoId')).toEqual({
      invalid: true,
      message: 'That photo is still being processed (or could not be): choose it once the library shows it ready.',
    })
    const wrongKind = await admin.post('/admin/partners', { ...form, kind: 'venue', logoId: String(photos.spare.id) })
    expect(fieldState(between(wrongKind.html, 'id="partner-new"', '</form>'), 'logoId').message).toBe('Choose a venue photo from the media library.')

    expect((await admin.post('/admin/partners', { ...form, logoId: String(photos.spare.id) })).status).toBe(302)
    await expect.poll(async () => (await partnersOn('/')).length).toBe(3)
    expect((await partnersOn('/about'))[2]).toContain('alt="Swim Federation"')
  })

  it('shows nothing once every one is hidden', async () => {
    const admin = await site.sharedStaff()
    const page = (await admin.get('/admin/partners')).html
    const ids = [...page.matchAll(/name="intent" value="show"\/><input type="hidden" name="id" value="(\d+)"\/><input type="hidden" name="shown" value="false"/g)].map((match) => match[1]!)
    expect(ids.length).toBeGreaterThan(0)
    for (const id of ids) expect((await admin.post('/admin/partners', { intent: 'show', id, shown: 'false' })).status).toBe(302)
    await expect.poll(() => partnersOn('/')).toEqual([])
    expect(await partnersOn('/about')).toEqual([])
  })
})
