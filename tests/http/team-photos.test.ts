import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { siteSettings, type MediaVariant } from '~/db/schema'
import { SITE_SETTINGS_SEED } from '~/db/seed.server'
import { addPortrait, BLUR, PORTRAIT } from '../support/media'
import { between, section } from '../support/page-text'
import { useTestSite } from '../support/site'
import { fieldState, text, Visitor } from '../support/visitor'

// The team's and the coach's portraits from the media library, on /about, in the camp banner and
// in the settings' forms, as a browser without JavaScript gets them.

const photos = {} as Record<'meera' | 'coach' | 'undescribed' | 'processing' | 'spare', { id: number; variants: MediaVariant[] }>

const site = useTestSite(
  {},
  {
    prepare: async (db) => {
      photos.meera = await addPortrait(db, { title: 'Meera at the pool', altText: 'Dr Meera Iyer smiling at the poolside', status: 'ready' })
      photos.coach = await addPortrait(db, { title: 'Coach on deck', altText: 'The camp coach on the pool deck, whistle in hand', status: 'ready' })
      photos.undescribed = await addPortrait(db, { title: 'Untitled portrait', altText: '', status: 'ready' })
      photos.processing = await addPortrait(db, { title: 'Still processing', altText: 'A swimmer in a cap', status: 'processing' })
      photos.spare = await addPortrait(db, { title: 'Analyst portrait', altText: 'The lab analyst at a laptop', status: 'ready' })
      const [, , , fourth] = SITE_SETTINGS_SEED.team
      const named = (name: string) => ({ name, role: 'Sports scientist', bio: `${name} studies how swimmers move.`, placeholder: false })
      await db
        .update(siteSettings)
        .set({
          // Named, with the credentials still to come.
          coach: { ...SITE_SETTINGS_SEED.coach, name: 'Priya Rao', placeholder: false, photoId: photos.coach.id },
          team: [
            { ...named('Meera Iyer'), photoId: photos.meera.id },
            { ...named('Kavya Nair'), photoId: photos.undescribed.id },
            { ...named('Rohan Das'), photoId: photos.processing.id },
            // Still the lab's placeholder, with a photo chosen already.
            { ...fourth!, photoId: photos.spare.id },
          ],
        })
        .where(eq(siteSettings.id, 1))
    },
  },
)

const srcSet = (variants: MediaVariant[], format: MediaVariant['format']) =>
  variants
    .filter((variant) => variant.format === format)
    .map((variant) => `/media/${variant.name} ${variant.width}w`)
    .join(', ')

/** Each card of the about page's team, in order. */
async function teamCards(visitor = new Visitor(site.url)) {
  const team = section((await visitor.get('/about')).html, 'team-heading')
  return [...team.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) => match[1]!)
}

describe('the team on /about', () => {
  it('shows a ready, described photo as a <picture> with AVIF and WebP sources, its alt text and size', async () => {
    const [card] = await teamCards()
    const picture = between(card!, '<picture>', '</picture>')
    expect(picture).toContain(`<source type="image/avif" srcSet="${srcSet(photos.meera.variants, 'avif')}" sizes="(min-width: 640px) 96px, 64px"/>`)
    expect(picture).toContain(`<source type="image/webp" srcSet="${srcSet(photos.meera.variants, 'webp')}" sizes="(min-width: 640px) 96px, 64px"/>`)
    const img = /<img [^>]*>/.exec(picture)![0]
    expect(img).toContain('alt="Dr Meera Iyer smiling at the poolside"')
    expect(img).toContain(`srcSet="${srcSet(photos.meera.variants, 'jpeg')}"`)
    expect(img).toContain(`width="${PORTRAIT.width}" height="${PORTRAIT.height}"`)
    expect(img).toContain('loading="lazy"')
    // The blurred copy lies under it, hidden from screen readers, with no inline style (the policy allows none).
    expect(card).toContain(`<img src="${BLUR}" alt="" aria-hidden="true"`)
    expect(card).not.toContain('style=')
    expect(card).not.toContain('role="img"')
  })

  it('draws the brand pattern, not an image, for a photo without alt text and one still processing', async () => {
    const [, undescribed, processing] = await teamCards()
    for (const [name, card] of [['Kavya Nair', undescribed], ['Rohan Das', processing]] as const) {
      expect(card, name).toContain(name)
      expect(card, name).not.toContain('<picture')
      expect(card, name).toMatch(/<svg aria-hidden="true" focusable="false"/)
      expect(card, name).not.toMatch(/role="img"|aria-label=/)
    }
  })

  it('leaves out a member who is still a placeholder, photo or not, and says the team is still to come', async () => {
    const cards = await teamCards()
    expect(cards).toHaveLength(3)
    const html = (await new Visitor(site.url).get('/about')).html
    expect(html).not.toContain(SITE_SETTINGS_SEED.team[3]!.name)
    expect(html).not.toContain(photos.spare.variants[0]!.name)
    expect(text(section(html, 'team-heading'))).toContain('Names, photos and profiles of our team are being finalised and will appear here soon.')
  })
})

describe('the camp banner', () => {
  it('shows the coach’s photo, and only that one of the library', async () => {
    const html = (await new Visitor(site.url).get('/pricing')).html
    const banner = between(html, 'aria-label="Swimming camps"', '</aside>')
    // Small in the line from the md breakpoint, larger in the details on a phone.
    expect(banner).toContain(`srcSet="${srcSet(photos.coach.variants, 'avif')}" sizes="32px"`)
    expect(banner).toContain(`srcSet="${srcSet(photos.coach.variants, 'avif')}" sizes="56px"`)
    expect(banner).toContain('alt="The camp coach on the pool deck, whistle in hand"')
    expect(text(banner)).toContain('Swimming camps with Priya Rao')
    // The credentials still to come are left out, not shown in brackets.
    expect(text(banner)).not.toContain('[')
    expect(html).not.toContain(SITE_SETTINGS_SEED.coach.credentials)
    // The page's data carries the coach's picture, not the team's or the rest of the library.
    expect(html).not.toContain(photos.meera.variants[0]!.name)
  })
})

describe('choosing a photo in the settings', () => {
  it('offers the usable portraits by title, with the current one chosen and a link to the library', async () => {
    const admin = await site.sharedStaff()
    const page = (await admin.get('/admin/settings')).html
    const coachForm = between(page, 'id="coach"', '</form>')
    const select = between(coachForm, '<select', '</select>')
    expect(select).toMatch(/name="photoId"/)
    expect(text(select).trim()).toBe('No photo Analyst portrait Coach on deck Meera at the pool')
    expect(select).toMatch(new RegExp(`<option value="${photos.coach.id}" selected="">Coach on deck</option>`))
    expect(text(coachForm)).toContain('Photos come from the media library (Team and coach portraits, with alt text).')
    expect(coachForm).toContain('href="/admin/media"')
  })

  it('refuses a photo that is still processing, next to the select; a ready one then shows on /about', async () => {
    const admin = await site.sharedStaff()
    const member = { intent: 'member', index: '3', name: 'Arjun Rao', role: 'Analyst', bio: 'Turns footage into numbers.' }
    const refused = await admin.post('/admin/settings', { ...member, photoId: String(photos.processing.id) })
    expect(refused.status).toBe(400)
    const form = between(refused.html, 'id="team-member-4"', '</form>')
    expect(fieldState(form, 'photoId')).toEqual({ invalid: true, message: 'That photo is still being processed (or could not be): choose it once the library shows it ready.' })

    const saved = await admin.post('/admin/settings', { ...member, photoId: String(photos.spare.id) })
    expect(saved.status).toBe(302)
    await expect.poll(async () => (await teamCards())[3]).toContain('alt="The lab analyst at a laptop"')
  })
})
