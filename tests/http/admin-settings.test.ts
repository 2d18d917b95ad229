import { describe, expect, it } from 'vitest'
import { SITE_SETTINGS_SEED } from '~/db/seed.server'
import { contactForm } from '../support/settings-forms'
import { fieldState, signUp, text, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'

// Catalogue and settings as staff use them in a browser without JavaScript: plain form posts and
// redirects against the real server; every change shows on the public pages at once.

const site = useTestSite()

const staff = site.sharedStaff

/** The settings page's forms post back to it; a saved form redirects to its own section. */
async function save(admin: Visitor, form: Record<string, string>) {
  const response = await admin.post('/admin/settings', form)
  expect([response.status, response.html]).toEqual([302, ''])
  expect(response.location).toMatch(/^\/admin\/settings#/)
  return text((await admin.get(response.location!)).html)
}

/** A public page as a visitor sees it; an edit reaches each instance's page cache within moments. */
async function eventually(path: string, check: (pageText: string) => void) {
  await expect
    .poll(async () => {
      try {
        check(text((await new Visitor(site.url).get(path)).html))
        return true
      } catch {
        return false
      }
    })
    .toBe(true)
  check(text((await new Visitor(site.url).get(path)).html))
}

/** The markup of the price row of catalogue item `code` (each row is its own form). */
function priceRow(html: string, code: string) {
  const at = html.indexOf(`name="code" value="${code}"`)
  expect(at).toBeGreaterThan(0)
  return html.slice(html.lastIndexOf('<tr', at), html.indexOf('</tr>', at))
}

describe('who reaches the settings', () => {
  it('guests are sent to sign in, customers get 403, for the pages and their forms', async () => {
    const guest = new Visitor(site.url)
    for (const path of ['/admin/settings', '/admin/audit']) {
      const page = await guest.get(path)
      expect([path, page.status, page.location]).toEqual([path, 302, `/login?redirectTo=${encodeURIComponent(path)}`])
    }
    expect((await guest.post('/admin/settings', { intent: 'banner', visible: 'false' })).location).toBe('/login?redirectTo=%2Fadmin%2Fsettings')

    const customer = await signUp(new Visitor(site.url), site.sink, { email: 'nosy@example.com', name: 'Nosy Customer' })
    expect((await customer.get('/admin/settings')).status).toBe(403)
    expect((await customer.get('/admin/audit')).status).toBe(403)
    expect((await customer.post('/admin/settings', { intent: 'price', code: 'single_race', price: '1' })).status).toBe(403)
    expect(priceRow((await (await staff()).get('/admin/settings')).html, 'single_race')).toContain('value="3,499"')
  })
})

describe('catalogue prices', () => {
  it('an edited price and regular price show on /pricing and /booking straight away', async () => {
    const admin = await staff()
    const page = await admin.get('/admin/settings')
    expect(page.status).toBe(200)
    expect(page.html).toMatch(/<form[^>]*method="post"/)
    expect(priceRow(page.html, 'biomechanical_package')).toContain('value="30,000"')

    const saved = await save(admin, { intent: 'price', code: 'biomechanical_package', price: '28,000', regularPrice: '36000' })
    expect(saved).toContain('Price saved')
    expect(saved).toContain('Now ₹28,000.00, regular ₹36,000.00')
    await eventually('/pricing', (pricing) => expect(pricing).toContain('Introductory price ₹28,000 Regular price ₹36,000'))

    await save(admin, { intent: 'price', code: 'single_both', price: '6499.50', regularPrice: '' })
    await eventually('/booking', (booking) => expect(booking).toContain('₹6,499.50'))
  })

  it('a regular price below the price is refused next to its field, with status 400 and the typed values kept', async () => {
    const admin = await staff()
    const response = await admin.post('/admin/settings', { intent: 'price', code: 'race_analysis', price: '5000', regularPrice: '4999' })
    expect(response.status).toBe(400)
    const row = priceRow(response.html, 'race_analysis')
    expect(fieldState(row, 'regularPrice')).toEqual({ invalid: true, message: 'The regular price must be at least the price' })
    expect(fieldState(row, 'price')).toEqual({ invalid: false, message: undefined })
    expect(row).toContain('value="4999"')
    // The other rows are untouched by this row's error.
    expect(fieldState(priceRow(response.html, 'biomechanical_package'), 'regularPrice').invalid).toBe(false)

    const malformed = await admin.post('/admin/settings', { intent: 'price', code: 'race_analysis', price: '5,000.001' })
    expect(malformed.status).toBe(400)
    expect(fieldState(priceRow(malformed.html, 'race_analysis'), 'price')).toEqual({ invalid: true, message: 'Enter an amount in rupees, for example 30000 or 3499.50' })
    await eventually('/pricing', (pricing) => expect(pricing).toContain('₹5,000 inclusive of GST'))
  })

  it('an unknown item is a 404', async () => {
    const admin = await staff()
    expect((await admin.post('/admin/settings', { intent: 'price', code: 'no_such_item', price: '100' })).status).toBe(404)
  })
})

describe('policy texts, contact and GST details', () => {
  it('the overview lists exactly what the public site still shows as a placeholder, each linked to the field that sets it; a detail filled leaves the list', async () => {
    const admin = await staff()
    const gaps = (html: string) => {
      const from = html.indexOf('aria-labelledby="launch-heading"')
      if (from === -1) return []
      const list = html.slice(from, html.indexOf('</section>', from))
      return [...list.matchAll(/<a[^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((match) => [match[2], match[1]])
    }
    const stillToSet = [
      ['Grievance officer (privacy policy)', '/admin/settings#grievance-officer-grievanceOfficerName'],
      ['Camp coach', '/admin/settings#coach-name'],
      ...[1, 2, 3, 4].map((n) => [`Team member ${n} (about page)`, `/admin/settings#team-member-${n}-name`]),
    ]
    const overview = (await admin.get('/admin')).html.replaceAll('<!-- -->', '')
    // The people not named yet are left out of the public pages, not shown as placeholders: the overview says which is which.
    expect(overview).toContain('Before going live: 11 details still to supply')
    expect(overview).toContain('the coach and the team members not named yet are left out of the banner and the about page')
    const before = gaps(overview)
    expect(before).toEqual([
      ['Postal address', '/admin/settings#contact-details-postalAddress'],
      ['Phone number', '/admin/settings#contact-details-phone'],
      ['Support e-mail', '/admin/settings#contact-details-supportEmail'],
      ['General e-mail', '/admin/settings#contact-details-infoEmail'],
      ['Registered name of the LLP', '/admin/settings#gst-details-legalName'],
      ...stillToSet,
    ])
    // Each link lands on the input itself.
    const settingsPage = (await admin.get('/admin/settings')).html
    for (const [, href] of before) expect(settingsPage).toMatch(new RegExp(`<(input|textarea)[^>]*id="${href!.split('#')[1]}"`))

    // Every contact detail given, the optional website, WhatsApp number and social links left empty.
    await save(admin, contactForm({ postalAddress: '12 Stadium Road, Bengaluru 560001', phone: '+91 80 4123 4567', supportEmail: 'support@lab.example', infoEmail: 'info@lab.example' }))
    expect(gaps((await admin.get('/admin')).html)).toEqual([['Registered name of the LLP', '/admin/settings#gst-details-legalName'], ...stillToSet])
    await save(admin, { intent: 'gst', legalName: 'Swim Science LLP', gstin: '', gstRate: '18' })
    expect(gaps((await admin.get('/admin')).html)).toEqual(stillToSet)
  })

  it('an optional link left empty is not shown anywhere; saving one empty clears it, saved and audited like any change', async () => {
    const admin = await staff()
    const footer = async (path: string) => {
      const html = (await new Visitor(site.url).get(path)).html
      return html.slice(html.indexOf('<footer'), html.indexOf('</footer>'))
    }
    for (const path of ['/', '/contact', '/about']) {
      const page = await footer(path)
      expect(page).not.toContain('[link to be supplied]')
      expect(text(page)).not.toMatch(/LinkedIn|Instagram|X \(Twitter\)/)
    }

    const linkedin = 'https://www.linkedin.com/company/swim-lab'
    expect(await save(admin, contactForm({ linkedin, instagram: 'https://instagram.com/swimlab' }))).toContain('Contact details saved')
    await eventually('/contact', (page) => expect(page).toMatch(/LinkedIn Instagram/))
    expect(await footer('/contact')).toContain(`href="${linkedin}"`)

    const cleared = await save(admin, contactForm({ linkedin: '', instagram: 'https://instagram.com/swimlab' }))
    expect(cleared).toContain('Contact details saved')
    expect(cleared).not.toContain('Nothing to save')
    await eventually('/contact', (page) => expect(page).not.toContain('LinkedIn'))
    const page = await footer('/contact')
    expect(text(page)).toContain('Instagram')
    expect(text(page)).not.toMatch(/LinkedIn|X \(Twitter\)|\[link to be supplied\]/)
    expect(text((await admin.get('/admin/audit')).html)).toContain(`Social links › LinkedIn “${linkedin}” → changed to (empty)`)
  })

  it('the grievance officer: checked next to each field, then named on the privacy policy instead of the placeholder', async () => {
    const admin = await staff()
    expect(text((await admin.get('/privacy-policy')).html)).toContain('[Grievance officer — to be supplied by the lab]')
    const invalid = await admin.post('/admin/settings', { intent: 'grievance', grievanceOfficerName: '', grievanceOfficerEmail: 'not an address' })
    expect(invalid.status).toBe(400)
    expect(fieldState(invalid.html, 'grievanceOfficerName')).toEqual({ invalid: true, message: "Enter the grievance officer's name" })
    expect(fieldState(invalid.html, 'grievanceOfficerEmail')).toEqual({ invalid: true, message: 'Enter an e-mail address' })
    expect(await save(admin, { intent: 'grievance', grievanceOfficerName: 'Dr Meera Iyer', grievanceOfficerEmail: 'Privacy@Lab.example' })).toContain('Grievance officer saved')
    await eventually('/privacy-policy', (page) => {
      expect(page).toContain('Dr Meera Iyer')
      expect(page).toMatch(/privacy@\s*lab\.example/)
      expect(page).not.toContain('[Grievance officer — to be supplied by the lab]')
    })
  })

  it('an edited refund policy shows on /refund', async () => {
    const admin = await staff()
    const saved = await save(admin, { intent: 'policies', reportDelivery: 'within 72 hours', refundPolicy: 'within 5 business days, to the original payment method', reanalysisMonths: '3' })
    expect(saved).toContain('Policy texts saved')
    await eventually('/refund', (refund) => expect(refund).toContain('Refunds are credited within 5 business days, to the original payment method'))
    await eventually('/how-it-works', (page) => expect(page).toContain('within 72 hours'))
  })

  it('refuses a report delivery time the overdue check cannot read', async () => {
    const admin = await staff()
    const response = await admin.post('/admin/settings', { intent: 'policies', reportDelivery: 'soon', refundPolicy: '', reanalysisMonths: '25' })
    expect(response.status).toBe(400)
    expect(fieldState(response.html, 'reportDelivery')).toEqual({ invalid: true, message: 'Say how long in hours or days, for example “within 48 hours” or “within 5-7 business days”' })
    expect(fieldState(response.html, 'refundPolicy')).toEqual({ invalid: true, message: 'Enter how refunds are paid' })
    expect(fieldState(response.html, 'reanalysisMonths')).toEqual({ invalid: true, message: 'Enter a number of months from 1 to 24' })
  })

  it('saves real contact details, which the contact page then links; placeholders may stay', async () => {
    const admin = await staff()
    const invalid = await admin.post('/admin/settings', contactForm({ phone: '080-4123', supportEmail: 'support at lab' }))
    expect(invalid.status).toBe(400)
    expect(fieldState(invalid.html, 'phone').message).toBe('Enter a phone number of at least 10 digits (digits and spaces, optionally starting with +)')
    expect(fieldState(invalid.html, 'supportEmail').message).toBe('Enter an e-mail address')
    expect(fieldState(invalid.html, 'postalAddress').invalid).toBe(false)

    expect(await save(admin, contactForm({ phone: '+91 80 4123 4567', supportEmail: 'support@lab.example' }))).toContain('Contact details saved')
    await eventually('/contact', (contact) => {
      expect(contact).toContain('+91 80 4123 4567')
      expect(contact).toContain(SITE_SETTINGS_SEED.infoEmail)
    })
    expect((await new Visitor(site.url).get('/contact')).html).toContain('href="tel:+918041234567"')
  })

  it('stores the GSTIN upper-cased and the rate as typed; a malformed GSTIN is refused next to its field', async () => {
    const admin = await staff()
    const invalid = await admin.post('/admin/settings', { intent: 'gst', legalName: 'Swim Science LLP', gstin: '29ABCDE1234', gstRate: '18.255' })
    expect(invalid.status).toBe(400)
    expect(fieldState(invalid.html, 'gstin')).toEqual({ invalid: true, message: 'Enter the 15-character GSTIN, for example 29ABCDE1234F1Z5, or leave it empty' })
    expect(fieldState(invalid.html, 'gstRate')).toEqual({ invalid: true, message: 'Enter the rate as a percentage with up to 2 decimals, for example 18' })

    await save(admin, { intent: 'gst', legalName: 'Swim Science LLP', gstin: '29abcde1234f1z5', gstRate: '12.5' })
    const page = (await admin.get('/admin/settings')).html
    expect(page).toMatch(/name="gstin"[^>]*value="29ABCDE1234F1Z5"|value="29ABCDE1234F1Z5"[^>]*name="gstin"/)
    expect(page).toMatch(/name="gstRate"[^>]*value="12.5"|value="12.5"[^>]*name="gstRate"/)
    await eventually('/terms', (terms) => expect(terms).toContain('Swim Science LLP'))
  })
})

describe('coach and team', () => {
  it('an edited team member appears on the about page and is no longer marked a placeholder', async () => {
    const admin = await staff()
    const before = (await admin.get('/admin/settings')).html
    expect(before.match(/>Placeholder</g)).toHaveLength(5)
    await save(admin, { intent: 'member', index: '0', name: 'Dr Meera Iyer', role: 'Sports scientist', bio: 'Biomechanics researcher and former national swimmer.' })
    await save(admin, { intent: 'coach', name: 'Coach Example', credentials: 'Olympic finalist, 200 m butterfly' })
    expect((await admin.get('/admin/settings')).html.match(/>Placeholder</g)).toHaveLength(3)
    await eventually('/about', (about) => expect(about).toContain('Dr Meera Iyer Sports scientist Biomechanics researcher and former national swimmer.'))
    await eventually('/', (home) => expect(home).toContain('Coach Example'))

    const invalid = await admin.post('/admin/settings', { intent: 'member', index: '1', name: '', role: 'Analyst', bio: '' })
    expect(invalid.status).toBe(400)
    expect(invalid.html).toContain('Enter the name')
    expect(invalid.html).toContain('Enter a short bio')
  })
})

describe('the banner', () => {
  it('switched off disappears from every page, and comes back when switched on', async () => {
    const admin = await staff()
    const banner = 'aria-label="Swimming camps"'
    expect((await new Visitor(site.url).get('/')).html).toContain(banner)
    expect(await save(admin, { intent: 'banner', visible: 'false' })).toContain('The banner is off')
    for (const path of ['/', '/pricing', '/refund']) {
      await expect.poll(async () => (await new Visitor(site.url).get(path)).html.includes(banner)).toBe(false)
    }
    expect(await save(admin, { intent: 'banner', visible: 'true' })).toContain('The banner is on')
    await expect.poll(async () => (await new Visitor(site.url).get('/pricing')).html.includes(banner)).toBe(true)
  })
})

describe('the audit log', () => {
  it('lists who changed what and when, newest first, with each value before and after, filterable by kind', async () => {
    const admin = await staff()
    await save(admin, { intent: 'price', code: 'single_race', price: '3999', regularPrice: '' })
    await save(admin, { intent: 'policies', reportDelivery: 'within 48 hours', refundPolicy: 'within 7 business days, to the original payment method', reanalysisMonths: '3' })

    const log = await admin.get('/admin/audit')
    expect(log.status).toBe(200)
    const entries = [...log.html.matchAll(/data-testid="audit-entry"[\s\S]*?<\/li>/g)].map((match) => text(match[0]))
    expect(entries[0]).toContain('Changed the policy texts: report delivery, refund policy')
    expect(entries[0]).toContain('staff@lab.example')
    expect(entries[0]).toMatch(/\d{1,2}:\d\d [AP]M IST on \d{1,2} \w+ \d{4}/)
    expect(entries[0]).toContain('Report delivery “within 72 hours” → changed to “within 48 hours”')
    expect(entries[1]).toContain('Changed the price of Race Analysis Session (Single session) from ₹3,499.00 (regular none) to ₹3,999.00 (regular none)')
    expect(entries[1]).toContain('Price ₹3,499.00 → changed to ₹3,999.00')

    const prices = text((await admin.get('/admin/audit?type=catalogue_item')).html)
    expect(prices).toContain('Changed the price of Race Analysis Session (Single session)')
    expect(prices).toContain('Changed the price of 3-Day Biomechanical Analysis (Master the Mechanics) from ₹30,000.00 (regular ₹35,000.00) to ₹28,000.00 (regular ₹36,000.00)')
    expect(prices).not.toContain('Changed the policy texts')
    expect(prices).not.toContain('camp banner')
  })

  it('pages back through older changes, 50 to a page, keeping the filter', async () => {
    const admin = await staff()
    for (let change = 1; change <= 51; change += 1) {
      const response = await admin.post('/admin/settings', { intent: 'price', code: 'single_race', price: String(4000 + change), regularPrice: '' })
      expect(response.status).toBe(302)
    }
    const entries = (html: string) => [...html.matchAll(/data-testid="audit-entry"[\s\S]*?<\/li>/g)].map((match) => text(match[0]))
    const first = await admin.get('/admin/audit?type=catalogue_item')
    expect(entries(first.html)).toHaveLength(50)
    expect(entries(first.html)[0]).toContain('to ₹4,051.00')
    expect(entries(first.html)[49]).toContain('to ₹4,002.00')
    expect(first.html).not.toContain('Newest changes')
    const older = /href="([^"]*before=\d+[^"]*)"[^>]*>Older changes/.exec(first.html)?.[1]?.replaceAll('&amp;', '&')
    expect(older).toMatch(/^\/admin\/audit\?type=catalogue_item&before=\d+$/)

    const second = await admin.get(older!)
    expect(entries(second.html)[0]).toContain('to ₹4,001.00')
    expect(entries(second.html).every((entry) => entry.includes('Changed the price of'))).toBe(true)
    expect(second.html).toContain('Newest changes')
    expect((await admin.get('/admin/audit?before=not-a-number')).status).toBe(200)
  })
})
