import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { mediaItems, type MediaVariant } from '~/db/schema'
import { addPhoto } from '../support/media'
import { between, section } from '../support/page-text'
import { useTestSite } from '../support/site'
import { fieldState, text, Visitor } from '../support/visitor'

// The pictures staff choose for the pages, as a browser without JavaScript sends and gets them:
// the settings' form, its refusals next to the field, and the home page's art-directed hero.

const photos = {} as Record<'pool' | 'upright' | 'lab', { id: number; variants: MediaVariant[] }>
let loop = 0

const site = useTestSite(
  {},
  {
    prepare: async (db) => {
      photos.pool = await addPhoto(db, 'pool', { title: 'Lane four', altText: 'Swimmers racing down lane four', status: 'ready', size: { width: 2400, height: 1600 } })
      photos.upright = await addPhoto(db, 'underwater', { title: 'Catch from below', altText: 'A hand entering the water, from below', status: 'ready', size: { width: 1500, height: 2000 } })
      photos.lab = await addPhoto(db, 'lab', { title: 'The camera rig', altText: 'The underwater camera rig on the pool deck', status: 'ready', size: { width: 2000, height: 1500 } })
      const [row] = await db
        .insert(mediaItems)
        .values({ kind: 'video', collection: 'loop', title: 'Lane four loop', altText: '', decorative: true, status: 'ready', originalKey: `original-${randomBytes(16).toString('hex')}`, originalType: 'video/mp4', originalBytes: 1000, width: 1280, height: 720, variants: [{ format: 'mp4', width: 1280, height: 720, name: `${randomBytes(16).toString('hex')}.mp4`, bytes: 1000 }] })
        .returning({ id: mediaItems.id })
      loop = row!.id
    },
  },
)

const picturesForm = (html: string) => between(html, 'name="intent" value="pictures"', '</form>')
/** The options of a select of the form, as read. */
const options = (form: string, name: string) => text(between(form, `name="${name}"`, '</select>').replace(/^[^>]*>/, '')).trim()
const choose = (choices: Record<string, number>) => ({ intent: 'pictures', ...Object.fromEntries(Object.entries(choices).map(([slot, id]) => [slot, String(id)])) })

describe('the pictures on the pages', () => {
  it('are offered by what suits each place, refused next to the field when they do not fit, and shown once saved', async () => {
    const admin = await site.sharedStaff()
    const form = picturesForm((await admin.get('/admin/settings')).html)
    expect(options(form, 'heroPhone')).toBe('The site’s artwork Catch from below')
    expect(options(form, 'heroWide')).toBe('The site’s artwork Lane four The camera rig')
    expect(options(form, 'heroLoop')).toBe('No video loop Lane four loop')

    const refused = await admin.post('/admin/settings', choose({ heroWide: photos.upright.id, heroPhone: photos.pool.id }))
    expect(refused.status).toBe(400)
    expect(fieldState(picturesForm(refused.html), 'heroWide')).toEqual({ invalid: true, message: 'That photo is not wide enough for this place: choose a landscape photo (wider than it is tall).' })
    const noWide = await admin.post('/admin/settings', choose({ heroLoop: loop }))
    expect(fieldState(picturesForm(noWide.html), 'heroLoop')).toEqual({ invalid: true, message: 'Choose the photo for computers and tablets too: it shows until the loop starts, and wherever it does not play.' })

    const saved = await admin.post('/admin/settings', choose({ heroWide: photos.pool.id, heroPhone: photos.upright.id, heroLoop: loop, cameras: photos.lab.id }))
    expect(saved).toMatchObject({ status: 302, location: '/admin/settings#pictures' })

    await expect.poll(async () => (await new Visitor(site.url).get('/')).html).toContain('data-hero="photo"')
    const home = (await new Visitor(site.url).get('/')).html
    const hero = between(home, 'data-hero="photo"', '</picture>')
    // Phones first (the upright photo), then every other width (the landscape one), each as AVIF, WebP and JPEG.
    const avif = (variants: MediaVariant[]) => variants.filter((variant) => variant.format === 'avif').map((variant) => `/media/${variant.name} ${variant.width}w`).join(', ')
    expect(hero.indexOf(`media="(max-width: 639px)" type="image/avif" srcSet="${avif(photos.upright.variants)}"`)).toBeGreaterThan(0)
    expect(hero.indexOf(`type="image/avif" srcSet="${avif(photos.pool.variants)}"`)).toBeGreaterThan(hero.indexOf('(max-width: 639px)'))
    // Described differently, each photo's description is read out at the width that shows it.
    expect(hero).toMatch(/<img[^>]*alt=""[^>]*fetchPriority="high"/)
    expect(hero).toContain('<span class="sr-only sm:hidden">A hand entering the water, from below</span><span class="sr-only hidden sm:block">Swimmers racing down lane four</span>')
    // The loop is in the page's data for the script that may start it; the markup never starts it.
    expect(home).toContain('.mp4')
    expect(between(home, '<video', '>')).not.toMatch(/autoplay|src=/i)
    expect(section(home, 'services-heading')).toContain('alt="The underwater camera rig on the pool deck"')

    // A browser saving data is not sent the loop, not even its address.
    const saving = await new Visitor(site.url).request('/', { headers: { 'Save-Data': 'on' } })
    expect(saving.html).toContain('data-hero="photo"')
    expect(saving.html).not.toContain('.mp4')
    expect(saving.html).not.toContain('<video')
  })
})
