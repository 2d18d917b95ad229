import { describe, expect, it } from 'vitest'
import { CATALOGUE_SEED } from '~/db/seed.server'
import { formatWholeRupees } from '~/lib/money'
import { PRODUCT_NAME } from '~/lib/seo'
import { eventually } from '../support/eventually'
import { between } from '../support/page-text'
import { useTestSite } from '../support/site'
import { decodeHtml, fieldState, groupState, registrationForm, swimmerForm, text, Visitor } from '../support/visitor'

// How a visitor finds their way: signing in from any page, one page where every booking button
// leads, camps in the header while they are open, and a registration that asks rather than assumes.

const site = useTestSite()

const header = (html: string) => between(html, '<header', '</header>')
/** The header as a desktop shows it (the phone menu follows it in the markup). */
const desktopHeader = (html: string) => header(html).slice(0, header(html).indexOf('aria-label="Mobile"'))
const mobileMenu = (html: string) => between(header(html), 'aria-label="Mobile"', '</nav>')
const footer = (html: string) => between(html, '<footer', '</footer>')

/** Every link of `html` as [its text, where it leads]. */
const links = (html: string) => [...decodeHtml(html).matchAll(/<a[^>]*href="([^"]*)"[^>]*>([^]*?)<\/a>/g)].map((match) => [text(match[2]!).trim(), match[1]!] as const)

const escaped = (words: string) => words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const SIGN_IN: readonly [string, string] = ['Sign in', '/login']

describe('signing in', () => {
  it('is offered to a signed-out visitor in the header, the phone menu and the footer of every page, and not to a signed-in one', async () => {
    const guest = new Visitor(site.url)
    for (const path of ['/', '/pricing', '/book', '/onboarding', '/terms', '/booking']) {
      const page = await guest.get(path)
      expect([path, page.status]).toEqual([path, 200])
      expect(links(desktopHeader(page.html)), path).toContainEqual(SIGN_IN)
      expect(links(mobileMenu(page.html)), path).toContainEqual(SIGN_IN)
      expect(links(footer(page.html)), path).toContainEqual(SIGN_IN)
    }

    const customer = await site.customer('Meena Pillai')
    for (const path of ['/pricing', '/book', '/my-bookings']) {
      const page = await customer.get(path)
      expect(links(header(page.html)).map(([, href]) => href), path).not.toContain('/login')
      expect(links(footer(page.html)).map(([, href]) => href), path).not.toContain('/login')
      expect(text(header(page.html)), path).toContain('Welcome, Meena Pillai')
      expect(links(header(page.html)), path).toContainEqual(['My Bookings', '/my-bookings'])
    }
  })
})

describe('the choice of products', () => {
  const analysis = CATALOGUE_SEED.find((item) => item.code === 'biomechanical_package')!

  it('lists each product with its price and duration from the catalogue, and follows a price staff change', async () => {
    const page = text((await new Visitor(site.url).get('/book')).html)
    for (const item of CATALOGUE_SEED) {
      expect(page, item.code).toMatch(new RegExp(`${escaped(item.name)} .*?Duration: ${escaped(item.duration)} Price: ${formatWholeRupees(item.pricePaise)}`))
    }
    expect(page).toContain(`regular price ${formatWholeRupees(analysis.regularPricePaise!)}`)

    const staff = await site.sharedStaff()
    const saved = await staff.post('/admin/settings', { intent: 'price', code: 'single_race', price: '3,799', regularPrice: '' })
    expect(saved.status).toBe(302)
    await eventually(
      async () => text((await new Visitor(site.url).get('/book')).html),
      (page) => /Race Analysis Session .*?Price: ₹3,799/.test(page),
    )
  })

  it('is where every generic booking button leads; only the 3-day package’s own button goes to /book-slot, which sends a guest to sign in', async () => {
    const guest = new Visitor(site.url)
    const generic = /^(Book a Session|Book Now|Book Your Session Today)$/
    for (const path of ['/', '/about', '/services', '/how-it-works', '/pricing', '/contact', '/book']) {
      const all = links((await guest.get(path)).html)
      const buttons = all.filter(([label]) => generic.test(label))
      expect(buttons.length, path).toBeGreaterThan(0)
      expect(buttons.filter(([, href]) => href !== '/book'), path).toEqual([])
      if (path === '/pricing' || path === '/book') expect(all, path).toContainEqual([`Book Now : ${analysis.name}`, '/book-slot'])
    }
    const customer = await site.customer('Farah Khan')
    expect(links((await customer.get('/my-bookings')).html)).toContainEqual(['Book a Session', '/book'])
    expect(links(header((await customer.get('/my-bookings')).html))).toContainEqual(['Book Analysis', '/book'])

    const wall = await guest.get('/book-slot')
    expect([wall.status, wall.location]).toEqual([302, '/login?redirectTo=%2Fbook-slot'])
  })
})

describe('camps in the header', () => {
  const campsLink: readonly [string, string] = ['Camps', '/onboarding']

  it('are listed while a camp is open for registration, for guests and signed-in families, and not once none is', async () => {
    const guest = new Visitor(site.url)
    const customer = await site.customer('Ravi Das')
    for (const visitor of [guest, customer]) {
      const page = (await visitor.get('/pricing')).html
      expect(links(desktopHeader(page))).toContainEqual(campsLink)
      expect(links(mobileMenu(page))).toContainEqual(campsLink)
    }

    const staff = await site.sharedStaff()
    for (const code of ['camp1', 'camp2']) {
      const camp = (await staff.get(`/admin/camps/${code}`)).html
      const closed = await staff.post(`/admin/camps/${code}`, { ...campFormValues(camp), intent: 'update-camp', registration: 'closed' })
      expect([code, closed.status]).toEqual([code, 302])
    }
    for (const visitor of [guest, customer]) {
      await eventually(
        async () => links(header((await visitor.get('/pricing')).html)),
        (listed) => !listed.some(([label, href]) => label === campsLink[0] && href === campsLink[1]),
      )
    }
  })
})

/** The values a camp's edit form holds, as staff would send them back. */
function campFormValues(html: string) {
  const names = ['name', 'startsOn', 'endsOn', 'venue', 'earlyBirdPrice', 'regularPrice', 'earlyBirdDeadline']
  return Object.fromEntries(names.map((name) => [name, decodeHtml(new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1] ?? '')]))
}

describe('registration', () => {
  it('chooses no gender and no "how did you hear about us" for the person; required selects start on an empty "Choose…"', async () => {
    const page = (await new Visitor(site.url).get('/registration')).html
    expect(page).not.toMatch(/<input[^>]*name="gender"[^>]*checked/)
    const heard = /<select[^>]*name="howDidYouKnow"[^>]*>([^]*?)<\/select>/.exec(page)![1]!
    expect(heard).toMatch(/^<option value="">Choose…<\/option>/)
    expect(heard).not.toContain('selected')
    // Valid HTML: a required select shown as one line starts with an option of empty value.
    const requiredSelects = [...page.matchAll(/<select([^>]*)>([^]*?)<\/select>/g)].filter((select) => /\srequired/.test(select[1]!))
    expect(requiredSelects.length).toBeGreaterThanOrEqual(3)
    for (const select of requiredSelects) expect(select[2]).toMatch(/^<option value=""/)
  })

  it('refuses a form without a gender or how they heard of the lab, with the message next to each field', async () => {
    const { gender: _, howDidYouKnow: __, ...unchosen } = registrationForm({ email: 'unchosen@example.com' })
    const response = await new Visitor(site.url).post('/registration', { ...unchosen, howDidYouKnow: '' })
    expect(response.status).toBe(400)
    expect(groupState(response.html, 'Gender')).toEqual({ invalid: true, message: 'Please select your gender' })
    expect(fieldState(response.html, 'howDidYouKnow')).toEqual({ invalid: true, message: 'Please select how you got to know about us' })
  })

  it('does not ask again how the family heard of the lab when a swimmer is added', async () => {
    const customer = await site.customer('Latha Menon')
    const page = await customer.get('/swimmers/new')
    expect(page.status).toBe(200)
    expect(text(page.html)).not.toContain('How did you get to know about us')
    expect(page.html).not.toContain('name="howDidYouKnow"')
    const added = await customer.post('/swimmers/new', swimmerForm({ guardianDeclaration: 'on' }))
    expect([added.status, added.location]).toEqual([302, '/swimmers'])
  })
})

describe('small things a visitor meets', () => {
  it("the missing page's title names the site", async () => {
    const page = await new Visitor(site.url).get('/no-such-page')
    expect(page.status).toBe(404)
    expect(page.html).toContain(`<title>Oops! Page not found | ${PRODUCT_NAME}</title>`)
  })

  it('a struck-through price is read with visually hidden words, not an aria-label', async () => {
    // The home page shows the camp banner's early-bird price.
    for (const path of ['/', '/pricing', '/book']) {
      const struck = [...(await new Visitor(site.url).get(path)).html.matchAll(/<s\b([^>]*)>([^]*?)<\/s>/g)]
      expect(struck.length, path).toBeGreaterThan(0)
      for (const [, attributes, inner] of struck) {
        expect(attributes, path).not.toContain('aria-label')
        expect(inner, path).toMatch(/class="sr-only">regular price/i)
      }
    }
  })
})
