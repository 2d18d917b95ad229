import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogueItems, siteSettings } from '~/db/schema'
import { CATALOGUE_SEED, SITE_SETTINGS_SEED } from '~/db/seed.server'
import { formatWholeRupees } from '~/lib/money'
import { between, section, textOf } from '../support/page-text'
import { startTestServer, startTestServerOnEditedData, type TestServer } from '../support/test-server'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.stop()
})

async function getPage(path: string, from: TestServer = server) {
  const response = await fetch(`${from.url}${path}`)
  const html = await response.text()
  return { status: response.status, html, main: between(html, '<main', '</main>') }
}

function h1Of(html: string): string[] {
  return [...html.matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)].map((match) => textOf(match[1] ?? ''))
}

function seededItem(code: (typeof CATALOGUE_SEED)[number]['code']) {
  const item = CATALOGUE_SEED.find((entry) => entry.code === code)
  if (!item) throw new Error(`${code} is not in the catalogue seed`)
  return item
}

const biomechanical = seededItem('biomechanical_package')
const race = seededItem('race_analysis')

describe('/pricing', () => {
  it('shows both plan cards with the catalogue prices', async () => {
    const page = await getPage('/pricing')
    expect(page.status).toBe(200)
    expect(h1Of(page.html)).toEqual(['Simple, Transparent Pricing'])

    const plans = textOf(section(page.html, 'plans-heading'))
    expect(plans).toContain(`MOST POPULAR ${biomechanical.name} ${biomechanical.tagline}`)
    expect(plans).toContain(`Introductory price ${formatWholeRupees(biomechanical.pricePaise)} Regular price ${formatWholeRupees(biomechanical.regularPricePaise!)}`)
    expect(plans).toContain(`Save ${formatWholeRupees(biomechanical.regularPricePaise! - biomechanical.pricePaise)}`)
    expect(plans).toContain('Lifetime video access')
    expect(plans).toContain('1:1 feedback with a sports scientist')
    expect(plans).toContain(`${race.name} ${race.tagline} ${race.description} Duration: ${race.duration} ${formatWholeRupees(race.pricePaise)} inclusive of GST Travel and accommodation additional`)
    expect(plans.match(/inclusive of GST/g)).toHaveLength(2)
    expect(formatWholeRupees(biomechanical.pricePaise)).toBe('₹30,000')
  })

  it('strikes the regular price through, with an accessible label', async () => {
    const plans = section((await getPage('/pricing')).html, 'plans-heading')
    const struck = [...plans.matchAll(/<s[\s>][\s\S]*?<\/s>/g)].map((match) => textOf(match[0]))
    expect(struck).toEqual([`Regular price ${formatWholeRupees(biomechanical.regularPricePaise!)}`])
  })

  it('starts buying each product from its own button: the package books a slot, the competition analysis starts a conversation, a single session opens /booking with it chosen', async () => {
    const { html } = await getPage('/pricing')
    const buttons = (markup: string) => [...markup.matchAll(/<a [^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].map((match) => [textOf(match[2]!), match[1]!.replace(/&amp;/g, '&')])
    expect(buttons(section(html, 'plans-heading'))).toEqual([
      [`Book Now: ${biomechanical.name}`, '/book-slot'],
      [`Contact Us to Book: ${race.name}`, '/contact'],
    ])
    const single = section(html, 'single-sessions-heading')
    expect(buttons(single)).toEqual([
      ['Book This Session: Race Analysis Session', '/booking?service=race'],
      ['Book This Session: Biomechanical Analysis Session', '/booking?service=biomechanical'],
      ['Book This Session: Race + Biomechanical Analysis Session', '/booking?service=both'],
    ])
    const both = seededItem('single_both')
    expect(textOf(single)).toContain(`${both.name} ${both.description} Duration: ${both.duration} ${formatWholeRupees(both.pricePaise)} inclusive of GST`)

    // The chosen service is the one /booking starts with; an unknown one chooses nothing.
    const checked = (page: string) => [...page.matchAll(/<input[^>]*name="service"[^>]*>/g)].filter((input) => /\schecked=""/.test(input[0])).map((input) => /value="([^"]*)"/.exec(input[0])![1])
    expect(checked((await getPage('/booking?service=both')).html)).toEqual(['both'])
    expect(checked((await getPage('/booking?service=nonsense')).html)).toEqual([])
  })

  it('answers the FAQ with the same prices, report delivery and refund policy as the settings', async () => {
    const { html } = await getPage('/pricing')
    const faqHtml = section(html, 'faq-heading')
    expect(faqHtml.match(/<details name="pricing-faq"/g)?.length).toBeGreaterThanOrEqual(4)
    expect(faqHtml).not.toMatch(/<details[^>]* open/)

    const faq = textOf(faqHtml)
    expect(faq).toContain(
      `${formatWholeRupees(biomechanical.pricePaise)} at the introductory price (regular price ${formatWholeRupees(biomechanical.regularPricePaise!)})`,
    )
    expect(faq).toContain(`delivered ${SITE_SETTINGS_SEED.reportDelivery}`)
    expect(faq).toContain(`Refunds are credited ${SITE_SETTINGS_SEED.refundPolicy}.`)
    expect(faq).toContain('Can my coach attend the session?')
    // No price or refund delay written into the text by hand: they come from the catalogue and the settings.
    expect(faq).not.toContain('₹25,000')
    expect(faq).not.toContain('5-7 business days')
  })

  it('describes the page with the catalogue prices', async () => {
    const { html } = await getPage('/pricing')
    const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? ''
    expect(description).toContain(formatWholeRupees(biomechanical.pricePaise))
    expect(description).toContain(formatWholeRupees(race.pricePaise))
  })
})

describe('/contact', () => {
  it('shows the contact details from the site settings', async () => {
    const page = await getPage('/contact')
    expect(page.status).toBe(200)
    expect(h1Of(page.html)).toEqual(['Contact Us'])

    const details = textOf(section(page.main, 'details-heading'))
    expect(details).toContain(SITE_SETTINGS_SEED.sessionLocation)
    expect(details).toContain(SITE_SETTINGS_SEED.postalAddress)
    expect(details).toContain(SITE_SETTINGS_SEED.phone)
    expect(details).toContain('Monday-Friday 9:00 AM-6:00 PM IST')
    expect(details).toContain(SITE_SETTINGS_SEED.supportEmail)
    expect(details).toContain(SITE_SETTINGS_SEED.infoEmail)
  })

  it('never turns a placeholder into a tel: or mailto: link, and omits an empty website', async () => {
    const { main } = await getPage('/contact')
    expect(SITE_SETTINGS_SEED.phone).toMatch(/^\[.*to be supplied by the lab\]$/)
    expect(main).not.toContain('href="tel:')
    expect(main).not.toContain('href="mailto:')
    expect(SITE_SETTINGS_SEED.websiteUrl).toBe('')
    expect(main).not.toMatch(/href="https?:/)
    expect(textOf(main)).not.toContain('Website')
  })

  it('shows How We Can Help You with a booking button and a Learn More link to /services', async () => {
    const { main } = await getPage('/contact')
    const help = section(main, 'help-heading')
    expect(textOf(help)).toMatch(/How We Can Help You Swimming Analysis .* Sports Science Research .* Custom Training Programs/)
    expect(help).toMatch(/<a [^>]*href="\/book"[^>]*>Book a Session<\/a>/)
    expect(help).toMatch(/<a [^>]*href="\/services"[^>]*>Learn More/)
    expect(main).not.toContain('<form')
  })
})

describe('legal pages', () => {
  it.each([
    ['/terms', 'Terms & Conditions', ['Governing Law and Jurisdiction', 'courts at Bengaluru (Bangalore), Karnataka', 'Indian rupees (INR)']],
    [
      '/privacy-policy',
      'Privacy Policy',
      [
        'Introduction',
        'Information We Collect',
        'How We Use Your Information',
        'Sharing Your Information',
        'Data Security',
        'How Long We Keep Your Data',
        'kept with your place in line A day after your turn came',
        'The text of e-mails we sent 90 days',
        'Invoices and the payments they record 8 years',
        "Children and Parents' Consent",
        'we e-mail the parent a link to read this policy and agree or refuse',
        'Your Rights and How to Use Them',
        'Grievance Officer',
        '[Grievance officer — to be supplied by the lab]',
        'Consent',
        'Changes to This Policy',
        'Digital Personal Data Protection Act, 2023',
      ],
    ],
    ['/refund', 'Refund Policy', ['24 hours in advance', 'reschedule a session free of charge up to 24 hours ahead']],
  ])('%s has its title, a last-updated date, the business name from the settings and no placeholder links', async (path, title, texts) => {
    const page = await getPage(path)
    expect(page.status).toBe(200)
    expect(h1Of(page.html)).toEqual([title])
    const text = textOf(page.main)
    expect(text).toMatch(/Last updated: \d{1,2} [A-Z][a-z]+ \d{4}/)
    expect(text).toContain(SITE_SETTINGS_SEED.legalName)
    for (const expected of texts) expect(text).toContain(expected)
    expect(page.main).toContain('class="prose-legal')
    expect(page.main).not.toContain('href="tel:')
    expect(page.main).not.toContain('href="mailto:')
  })

  it('states the refund policy from the settings on the refund page and in the terms', async () => {
    for (const path of ['/refund', '/terms']) {
      const text = textOf((await getPage(path)).main)
      expect(text, path).toContain(`Refunds are credited ${SITE_SETTINGS_SEED.refundPolicy}.`)
    }
    expect(SITE_SETTINGS_SEED.refundPolicy).toContain('to the original payment method')
  })
})

// The server's own PGlite database can only be prepared before it starts; with DATABASE_URL the
// server shares a PostgreSQL database with other test files, so this case runs on PGlite only.
describe.skipIf(Boolean(process.env.DATABASE_URL))('with prices, policies and contact details the lab has edited', () => {
  const edited = {
    biomechanical: { pricePaise: 28_000_00, regularPricePaise: 34_000_00, name: 'Three-Day Stroke Lab', description: 'Three mornings of filming and a full report.', duration: '3 mornings' },
    race: { pricePaise: 6_500_00 },
    single: { name: 'One Race, Filmed', duration: 'an hour' },
    settings: {
      reportDelivery: 'within 3 business days',
      refundPolicy: 'within 5 business days, to the original payment method',
      phone: '+91 80 1234 5678',
      supportEmail: 'support@lab.example.in',
      infoEmail: 'hello@lab.example.in',
      websiteUrl: 'https://lab.example.in',
      legalName: 'Example Swim Science LLP',
    },
  }
  let editedServer: TestServer

  beforeAll(async () => {
    editedServer = await startTestServerOnEditedData(async (db) => {
      await db.update(catalogueItems).set(edited.biomechanical).where(eq(catalogueItems.code, 'biomechanical_package'))
      await db.update(catalogueItems).set(edited.race).where(eq(catalogueItems.code, 'race_analysis'))
      await db.update(catalogueItems).set(edited.single).where(eq(catalogueItems.code, 'single_race'))
      await db.update(siteSettings).set(edited.settings).where(eq(siteSettings.id, 1))
    })
  })
  afterAll(() => editedServer?.stop())

  it('shows the edited prices on the cards and in the FAQ, and none of the seeded ones', async () => {
    const { html } = await getPage('/pricing', editedServer)
    const plans = textOf(section(html, 'plans-heading'))
    const faq = textOf(section(html, 'faq-heading'))
    expect(plans).toContain('Introductory price ₹28,000 Regular price ₹34,000 Save ₹6,000')
    expect(plans).toContain('₹6,500 inclusive of GST')
    expect(faq).toContain('₹28,000 at the introductory price (regular price ₹34,000)')
    expect(faq).toContain(`delivered ${edited.settings.reportDelivery}`)
    expect(faq).toContain(`Refunds are credited ${edited.settings.refundPolicy}.`)
    for (const seeded of [biomechanical.pricePaise, biomechanical.regularPricePaise!, race.pricePaise]) {
      expect(plans + faq).not.toContain(formatWholeRupees(seeded))
    }
  })

  it('names, describes and times every product as the catalogue does, on the pricing page and in the FAQs', async () => {
    const { html } = await getPage('/pricing', editedServer)
    const plans = textOf(section(html, 'plans-heading'))
    expect(plans).toContain(`${edited.biomechanical.name} Master the Mechanics ${edited.biomechanical.description} Duration: ${edited.biomechanical.duration}`)
    expect(plans).not.toContain(biomechanical.name)
    expect(textOf(section(html, 'single-sessions-heading'))).toContain(`${edited.single.name} ${seededItem('single_race').description} Duration: ${edited.single.duration}`)
    const faq = textOf(section(html, 'faq-heading'))
    expect(faq).toContain(`The ${edited.biomechanical.name} runs over ${edited.biomechanical.duration}, at the same time each day. A single session takes an hour or 45-60 minutes.`)
    const howItWorks = textOf((await getPage('/how-it-works', editedServer)).main)
    expect(howItWorks).toContain(`A single session takes about an hour or 45-60 minutes; the ${edited.biomechanical.name} runs over ${edited.biomechanical.duration}`)
    expect(textOf((await getPage('/booking', editedServer)).main)).toContain(edited.single.name)
  })

  it('links real contact details', async () => {
    const { main } = await getPage('/contact', editedServer)
    expect(main).toMatch(/<a [^>]*href="tel:\+918012345678"[^>]*>\+91 80 1234 5678<\/a>/)
    expect(main).toMatch(/<a [^>]*href="mailto:support@lab.example.in"/)
    expect(main).toMatch(/<a [^>]*href="mailto:hello@lab.example.in"/)
    expect(main).toMatch(/<a [^>]*href="https:\/\/lab.example.in"[^>]*>lab.example.in<\/a>/)
  })

  it('names the business and states the edited refund policy on the legal pages', async () => {
    const refund = textOf((await getPage('/refund', editedServer)).main)
    expect(refund).toContain(`Refunds are credited ${edited.settings.refundPolicy}.`)
    expect(refund).toContain(edited.settings.legalName)
    expect(textOf((await getPage('/terms', editedServer)).main)).toContain(`${edited.settings.legalName}, a limited liability partnership`)
  })
})
