import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogueItems, siteSettings } from '~/db/schema'
import { CATALOGUE_SEED, SITE_SETTINGS_SEED } from '~/db/seed.server'
import { between, section, textOf } from '../support/page-text'
import { startTestServer, startTestServerOnEditedData, type TestServer } from '../support/test-server'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.stop()
})

async function getPage(pathname: string, from: TestServer = server) {
  const response = await fetch(`${from.url}${pathname}`, { redirect: 'manual' })
  const html = await response.text()
  return { status: response.status, headers: response.headers, html, main: between(html, '<main', '</main>') }
}

function textsOf(html: string, tag: string): string[] {
  return [...html.matchAll(new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map((match) => textOf(match[1] ?? ''))
}

/** Each link as its visible text and target. */
function linksOf(html: string): { text: string; href: string }[] {
  return [...html.matchAll(/<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].map((match) => ({
    href: match[1] ?? '',
    text: textOf(match[2] ?? ''),
  }))
}

function jsonLdOf(html: string) {
  const scripts = [...html.matchAll(/<script type="application\/ld\+json"([^>]*)>([\s\S]*?)<\/script>/g)]
  expect(scripts).toHaveLength(1)
  const [, attributes = '', json = ''] = scripts[0] ?? []
  return { nonce: /nonce="([^"]*)"/.exec(attributes)?.[1], json, data: JSON.parse(json) }
}

const rupees = (paise: number) => (paise / 100).toFixed(2)

describe('home page (/)', () => {
  it('opens with the hero and its two calls to action', async () => {
    const { status, main } = await getPage('/')
    expect(status).toBe(200)
    expect(textsOf(main, 'h1')).toEqual(["India's First Sport Science Lab for Swimming"])
    const hero = section(main, 'page-title')
    expect(linksOf(hero)).toEqual(
      expect.arrayContaining([
        { text: 'Book a Session', href: '/book' },
        { text: 'Explore Our Services', href: '/services' },
      ]),
    )
  })

  it('leads every booking button of the header and footer to the choice of products; the 3-day analysis signs a guest in and brings them back', async () => {
    const { html } = await getPage('/')
    const header = between(html, '<header', '</header>')
    expect(linksOf(header).filter((link) => link.text === 'Book a Session').map((link) => link.href)).toEqual(['/book', '/book'])
    expect(linksOf(between(html, '<footer', '</footer>'))).toContainEqual({ text: 'Book Now', href: '/book' })
    expect(linksOf((await getPage('/book')).html)).toContainEqual({ text: 'Book Now: 3-Day Biomechanical Analysis', href: '/book-slot' })
    const booking = await fetch(`${server.url}/book-slot`, { redirect: 'manual' })
    expect([booking.status, booking.headers.get('Location')]).toEqual([302, '/login?redirectTo=%2Fbook-slot'])
  })

  it('shows the three service cards, the why section and both calls to action', async () => {
    const { main } = await getPage('/')
    const services = section(main, 'services-heading')
    expect(textsOf(services, 'h3')).toEqual(['Race Analysis', 'Biomechanical Analysis', 'Underwater Camera System'])
    expect(linksOf(services)).toContainEqual({ text: 'See How It Works', href: '/how-it-works' })

    const why = section(main, 'why-heading')
    expect(textsOf(why, 'h3')).toEqual([
      'First of Its Kind in India',
      'Sports Science & Technology Powered',
      'Personalized Reports & Insights',
    ])
    // Trust is claimed only with the lab's own count of swimmers behind it (tests/http/site-proof.test.ts).
    expect(textOf(why)).not.toContain('Trusted by')
    expect(textOf(why)).toContain(SITE_SETTINGS_SEED.reportDelivery)

    const join = section(main, 'join-heading')
    expect(textsOf(join, 'h2')).toEqual(['Join the Movement'])
    expect(linksOf(join)).toEqual([
      { text: 'Book a Session', href: '/book' },
      { text: 'Contact Us', href: '/contact' },
    ])

    const closing = section(main, 'next-level-heading')
    expect(textsOf(closing, 'h2')).toEqual(['Ready to Take Your Swimming to the Next Level?'])
    expect(linksOf(closing)).toContainEqual({ text: 'Book a Session', href: '/book' })
  })

  it('describes the lab as structured data, with the catalogue prices, allowed by the page’s policy', async () => {
    const { html, headers } = await getPage('/')
    const { nonce, json, data } = jsonLdOf(html)
    expect(nonce).toBeTruthy()
    // The cached home page allows its inline scripts by hash.
    expect(headers.get('content-security-policy')).toContain(`'sha256-${createHash('sha256').update(json).digest('base64')}'`)

    expect(data['@context']).toBe('https://schema.org')
    expect(data['@type']).toBe('SportsActivityLocation')
    expect(data.address.addressCountry).toBe('IN')
    const catalogue = data.hasOfferCatalog
    expect(catalogue['@type']).toBe('OfferCatalog')
    expect(catalogue.itemListElement.map((offer: { price: string; priceCurrency: string }) => [offer.price, offer.priceCurrency])).toEqual(
      CATALOGUE_SEED.map((item) => [rupees(item.pricePaise), 'INR']),
    )
  })
})

describe('about page (/about)', () => {
  it('tells the story under its headings', async () => {
    const { status, main } = await getPage('/about')
    expect(status).toBe(200)
    expect(textsOf(main, 'h1')).toEqual(['Bringing Sports Science to Indian Swimming'])
    expect(textsOf(main, 'h2')).toEqual([
      'Our Mission',
      'Why We Started',
      'Our Team',
      'What Makes Us Different',
      'Our Location',
      'Join the Movement',
    ])
    expect(textsOf(section(main, 'different-heading'), 'h3')).toEqual([
      'Exclusive to Swimming',
      'Coach-Friendly Feedback',
      'Fully Equipped Lab',
    ])
  })

  it('shows none of the seeded placeholder team, only a designed band saying the team is to come', async () => {
    const { html } = await getPage('/about')
    const team = section(html, 'team-heading')
    expect(SITE_SETTINGS_SEED.team.every((member) => member.placeholder)).toBe(true)
    expect(textsOf(team, 'h3')).toEqual([])
    expect(textOf(team)).toContain('Names, photos and profiles of our team are being finalised and will appear here soon.')
    // The band is the brand's pattern, hidden from screen readers: no image with a name, no silhouette.
    expect(team).toMatch(/<svg aria-hidden="true" focusable="false"/)
    expect(team).not.toMatch(/role="img"|aria-label=/)
    // Nowhere in the page, nor in the data it carries, a bracketed name, role or bio of the team or the coach.
    for (const member of SITE_SETTINGS_SEED.team) {
      for (const placeholder of [member.name, member.role, member.bio]) expect(html).not.toContain(placeholder)
    }
    expect(html).not.toMatch(/\[(Team member \d|Role|Short bio|Coach name|Coach credentials) —/)
  })

  it('gives the location from the site settings and a way to book or get in touch', async () => {
    const { main } = await getPage('/about')
    const location = textOf(section(main, 'location-heading'))
    expect(location).toContain(SITE_SETTINGS_SEED.venueName)
    expect(location).toContain(SITE_SETTINGS_SEED.sessionLocation)
    expect(location).toContain(SITE_SETTINGS_SEED.postalAddress)
    expect(linksOf(section(main, 'join-heading'))).toEqual([
      { text: 'Book a Session', href: '/book' },
      { text: 'Contact Us', href: '/contact' },
    ])
  })
})

describe('services page (/services)', () => {
  it('explains each service with what it covers', async () => {
    const { status, main } = await getPage('/services')
    expect(status).toBe(200)
    expect(textsOf(main, 'h1')).toEqual(['Our Services'])
    expect(textsOf(section(main, 'race-analysis-heading'), 'h3')).toEqual([
      'Frame-by-frame video analysis',
      'Stroke count, tempo and efficiency',
      'Turn time and start reaction',
      'Comparison with elite benchmarks',
    ])
    expect(textsOf(section(main, 'biomechanical-analysis-heading'), 'h3')).toEqual([
      'Joint angle measurement',
      'Multi-angle footage',
      'Injury risk identification',
      'Custom drills',
    ])
    const camera = section(main, 'underwater-camera-heading')
    expect(textsOf(camera, 'h2')).toEqual(['Underwater Camera Technology'])
    expect(textsOf(camera, 'h3')).toEqual(['HD video', 'Slow motion', 'Measurable data'])
    const reports = section(main, 'personalized-reports-heading')
    expect(textsOf(reports, 'h2')).toEqual(['Personalized Reports'])
    expect(textOf(reports)).toContain('Coach-friendly')
    expect(textOf(reports)).toContain(`delivered ${SITE_SETTINGS_SEED.reportDelivery}`)
  })

  it('says who it is for and ends with Book Your Session Today, leading to booking', async () => {
    const { main } = await getPage('/services')
    expect(textsOf(section(main, 'audience-heading'), 'h3')).toEqual([
      'Competitive Swimmers',
      'Coaches',
      'Parents',
      'Triathletes',
      'Masters Swimmers',
    ])
    expect(linksOf(main)).toContainEqual({ text: 'Book Your Session Today', href: '/book' })
  })
})

describe('how it works page (/how-it-works)', () => {
  it('walks through the five steps, with the report delivery time from the site settings', async () => {
    const { status, main } = await getPage('/how-it-works')
    expect(status).toBe(200)
    expect(textsOf(main, 'h1')).toEqual(['How It Works'])
    const steps = section(main, 'steps-heading')
    expect(textsOf(steps, 'h3')).toEqual([
      'Step 1: Book Session',
      'Step 2: Swim Normally',
      'Step 3: Data Analysis',
      'Step 4: Receive Personalized Report',
      'Step 5: Take Action',
    ])
    expect(textOf(steps)).toContain('online booking')
    expect(textOf(steps)).toContain('WhatsApp')
    expect(textOf(steps)).toContain(`Your personalized report arrives ${SITE_SETTINGS_SEED.reportDelivery}`)
    expect(linksOf(main).filter((link) => link.text === 'Book Now').map((link) => link.href)).toEqual(['/book', '/book'])
    // No number for the lab yet: WhatsApp is mentioned, never linked.
    expect(linksOf(main).filter((link) => link.href.includes('wa.me'))).toEqual([])
  })

  it('answers four questions in native disclosures that keep one open at a time', async () => {
    const faq = section((await getPage('/how-it-works')).main, 'faq-heading')
    const items = [...faq.matchAll(/<details\b([^>]*)>([\s\S]*?)<\/details>/g)]
    expect(items).toHaveLength(4)
    for (const [, attributes] of items) expect(attributes).toContain('name="faq"')
    expect(items.map(([, , body = '']) => textsOf(body, 'summary'))).toEqual([
      ['How long does a session take?'],
      ['Do I need to be an elite swimmer?'],
      ['Can my coach attend the session?'],
      ['How often should I get re-analysed?'],
    ])
    const answers = textOf(faq)
    expect(answers).toContain('about 45-60 minutes')
    expect(answers).toContain('Not at all')
    expect(answers).toContain('coaches are welcome')
    expect(answers).toContain('every 3-6 months')
  })
})

// The server's own PGlite database can only be prepared before it starts; with DATABASE_URL the
// server shares a PostgreSQL database with other test files, so this case runs on PGlite only.
describe.skipIf(Boolean(process.env.DATABASE_URL))('with settings and prices the lab has edited', () => {
  const edited = {
    settings: {
      reportDelivery: 'within 3 business days',
      whatsappNumber: '+91 98765 43210',
      venueName: 'Example Aquatic Centre',
      team: SITE_SETTINGS_SEED.team.map((_, index) => ({
        name: `Example Scientist ${index + 1}`,
        role: 'Sports scientist',
        bio: `Bio of example scientist ${index + 1}.`,
        placeholder: false,
      })),
    },
    // A text with markup must not be able to end the structured-data script early.
    race: { pricePaise: 6_500_00, tagline: 'Edge </script><script>alert(1)</script>' },
  }
  let editedServer: TestServer

  beforeAll(async () => {
    editedServer = await startTestServerOnEditedData(async (db) => {
      await db.update(siteSettings).set(edited.settings).where(eq(siteSettings.id, 1))
      await db.update(catalogueItems).set(edited.race).where(eq(catalogueItems.code, 'race_analysis'))
    })
  })
  afterAll(() => editedServer?.stop())

  it('shows the edited report delivery time everywhere, and never the seeded one', async () => {
    for (const pathname of ['/', '/services', '/how-it-works']) {
      const { main } = await getPage(pathname, editedServer)
      expect(textOf(main), pathname).toContain(edited.settings.reportDelivery)
      expect(textOf(main), pathname).not.toContain(SITE_SETTINGS_SEED.reportDelivery)
    }
  })

  it('shows the real team without placeholder markings, and the edited venue', async () => {
    const { main } = await getPage('/about', editedServer)
    const team = section(main, 'team-heading')
    expect(textsOf(team, 'h3')).toEqual(edited.settings.team.map((member) => member.name))
    expect(team).not.toContain('data-placeholder')
    expect(textOf(team)).not.toContain('being finalised')
    // No photos chosen yet: each card has the brand's pattern, decorative, where the photo will go.
    expect(team.match(/<svg aria-hidden="true" focusable="false"/g)).toHaveLength(edited.settings.team.length)
    expect(team).not.toContain('role="img"')
    expect(textOf(section(main, 'location-heading'))).toContain(edited.settings.venueName)
  })

  it('links the WhatsApp option and offers booking on WhatsApp once a number is set', async () => {
    const chat = `https://wa.me/919876543210?text=${encodeURIComponent('Hello, I would like to book a swimming analysis session.')}`
    const { main } = await getPage('/how-it-works', editedServer)
    expect(linksOf(main)).toContainEqual({ text: 'message us on WhatsApp', href: chat })
    expect(linksOf(main).filter((link) => link.text === 'Book on WhatsApp')).toEqual([
      { text: 'Book on WhatsApp', href: chat },
      { text: 'Book on WhatsApp', href: chat },
    ])
  })

  it('puts the edited price in the structured data and keeps markup inside it inert', async () => {
    const { html } = await getPage('/', editedServer)
    expect(html).not.toContain('<script>alert(1)</script>')
    const { json, data } = jsonLdOf(html)
    expect(json).not.toContain('<')
    const race = data.hasOfferCatalog.itemListElement.find((offer: { name: string }) => offer.name.includes(edited.race.tagline))
    expect(race?.price).toBe(rupees(edited.race.pricePaise))
  })
})
