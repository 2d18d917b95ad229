import { describe, expect, it } from 'vitest'
import { FAMILY, useFamilySite } from '../support/family-site'
import { decodeHtml, text, Visitor } from '../support/visitor'
import { CAMP_SUMMARY, paySummary } from '../support/camp-summary'

// A signed-in parent registers their swimmers for a camp together and pays once, as a browser
// without JavaScript does it.

const site = useFamilySite()

async function signedInParent() {
  const parent = new Visitor(site.url)
  const signedIn = await parent.post('/login', { email: FAMILY.email, password: FAMILY.password, website_url: '' })
  expect(signedIn.status).toBe(302)
  return parent
}

/** The swimmers' checkboxes of the form: value and label text. */
function swimmerBoxes(html: string) {
  return [...html.matchAll(/<label[^>]*>\s*<input([^>]*name="swimmers"[^>]*)>([^<]*)<\/label>/g)].map((match) => ({ tag: match[1]!, value: /value="(\d+)"/.exec(match[1]!)![1]!, label: match[2]!.trim() }))
}

describe('the signed-in camp form', () => {
  it("offers the account's swimmers as checkboxes, with the account's e-mail and WhatsApp number filled in", async () => {
    const parent = await signedInParent()
    const page = await parent.get('/onboarding')
    expect(page.status).toBe(200)
    const boxes = swimmerBoxes(page.html)
    expect(boxes.map((box) => box.label)).toEqual(['Meera Iyer (38 years)', 'Kavya Iyer (10 years)'])
    expect(boxes.every((box) => /type="checkbox"/.test(box.tag))).toBe(true)
    expect(page.html).toMatch(/<input[^>]*name="phone_number"[^>]*value="98450 54321"|<input[^>]*value="98450 54321"[^>]*name="phone_number"/)
    expect(text(page.html)).toContain(FAMILY.email)
    expect(page.html).not.toMatch(/name="name"/)
    // Signed out, the anonymous form as before.
    expect(text((await new Visitor(site.url).get('/onboarding')).html)).toContain('Full Name')
  })

  it('without a swimmer chosen, says so next to the group and holds nothing', async () => {
    const parent = await signedInParent()
    const answer = await parent.post('/onboarding', { intent: 'register_swimmers', phone_number: FAMILY.phone, camp: 'camp1', batch: 'batch1', website_url: '' })
    expect(answer.status).toBe(400)
    const fieldset = /<fieldset aria-describedby="([^"]+)"><legend[^>]*>Swimmers<\/legend>/.exec(answer.html)
    expect(fieldset).not.toBeNull()
    expect(answer.html).toMatch(new RegExp(`id="${fieldset![1]}"[^>]*>Please choose at least one swimmer<`))
  })

  it('registering two swimmers and paying once at the gateway confirms both; the status page and the e-mail name both', async () => {
    const parent = await signedInParent()
    const boxes = swimmerBoxes((await parent.get('/onboarding')).html)
    const form = new URLSearchParams({ intent: 'register_swimmers', phone_number: FAMILY.phone, camp: 'camp2', batch: 'batch1', website_url: '' })
    for (const box of boxes) form.append('swimmers', box.value)
    const submitted = await parent.post('/onboarding', form)
    expect(submitted.status).toBe(302)
    expect(submitted.location).toMatch(CAMP_SUMMARY)
    const summary = text((await parent.get(submitted.location!)).html)
    expect(summary).toContain('Camp fee for Meera Iyer ₹35,000.00 Camp fee for Kavya Iyer ₹35,000.00 Total ₹70,000.00')
    expect(summary).toContain('Pay ₹70,000')
    const pay = await paySummary(parent, submitted.location!)
    expect(pay.location).toMatch(new RegExp(`^${site.url}/sandbox-gateway/checkout/`))
    expect(text((await parent.get(pay.location!)).html)).toContain('70,000')
    const back = await parent.post(pay.location!, { outcome: 'success' })
    const statusPage = text((await parent.get(back.location!)).html)
    expect(statusPage).toContain('Registration Complete!')
    expect(statusPage).toContain('₹70,000 payment completed successfully')
    expect(statusPage).toMatch(/Swimmer Meera Iyer \(Registration ID CMP-\d{10}\)/)
    expect(statusPage).toMatch(/Swimmer Kavya Iyer \(Registration ID CMP-\d{10}\)/)
    expect(statusPage).toContain('Camp fee for Meera Iyer ₹35,000.00 Camp fee for Kavya Iyer ₹35,000.00 Amount ₹70,000.00')

    // My Bookings lists both registrations under their swimmers; one swimmer's page only theirs.
    const bookings = text((await parent.get('/my-bookings')).html)
    expect(bookings).toContain('Camp registrations')
    expect(bookings).toMatch(/Camp 2 Swimmer: Meera Iyer Registration ID CMP-\d{10} Confirmed Dates [^]*? Batch [^]*? Amount ₹35,000\.00/)
    expect(bookings).toMatch(/Camp 2 Swimmer: Kavya Iyer Registration ID CMP-\d{10} Confirmed/)
    const kavya = boxes.find((box) => box.label.startsWith('Kavya Iyer'))!
    const hers = text((await parent.get(`/my-bookings?swimmer=${kavya.value}`)).html)
    expect(hers).toMatch(/Camp 2 Swimmer: Kavya Iyer Registration ID CMP-\d{10}/)
    expect(hers).not.toContain('Swimmer: Meera Iyer')

    const mail = await site.sink.waitForMailTo(FAMILY.email, /Camp registration confirmed/)
    expect(mail.raw).toContain('Meera Iyer and Kavya Iyer')
    // Registered already: the same two again are refused by name, nothing held.
    const again = await parent.post('/onboarding', form)
    expect(again.status).toBe(409)
    expect(text(again.html)).toContain('Meera Iyer is already registered for Camp 2')
  })
})

describe('the sibling price', () => {
  /** Staff give Camp 1 a sibling price of 10% on its page, as they would in a browser. */
  async function tenPercentOffCamp1() {
    const admin = await site.staff()
    const page = (await admin.get('/admin/camps/camp1')).html
    const value = (name: string) => decodeHtml(/value="([^"]*)"/.exec(new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(page)![0])![1]!)
    const fields = ['name', 'startsOn', 'endsOn', 'venue', 'earlyBirdPrice', 'regularPrice', 'earlyBirdDeadline']
    const saved = await admin.post('/admin/camps/camp1', { ...Object.fromEntries(fields.map((name) => [name, value(name)])), registration: 'open', siblingPrice: 'percent', siblingPercent: '10', siblingAmount: '', intent: 'update-camp' })
    expect(saved.status).toBe(302)
    // Public pages read camps from a cache that a change clears a moment later.
    await expect.poll(async () => text((await new Visitor(site.url).get('/onboarding')).html), { timeout: 10_000, interval: 200 }).toContain('Each further swimmer of your family: ₹31,500 (10% off)')
  }

  it('is shown on the forms; two swimmers of a family pay the fee and the sibling price in one payment, and a guest with their e-mail and phone pays the sibling price', async () => {
    await tenPercentOffCamp1()
    const parent = await signedInParent()
    const form = (await parent.get('/onboarding')).html
    expect(text(form)).toContain('The first swimmer of your family pays ₹35,000. Each further swimmer of your family: ₹31,500 (10% off).')
    const boxes = swimmerBoxes(form)
    const values = new URLSearchParams({ intent: 'register_swimmers', phone_number: FAMILY.phone, camp: 'camp1', batch: 'batch1', website_url: '' })
    for (const box of boxes) values.append('swimmers', box.value)

    // Sent back (a phone number that is not one), the page keeps the sibling price's rule; the total is the summary's to say.
    const badPhone = new URLSearchParams(values)
    badPhone.set('phone_number', 'call me')
    const answer = await parent.post('/onboarding', badPhone)
    expect(answer.status).toBe(400)
    expect(text(answer.html)).toContain('The first swimmer of your family pays ₹35,000. Each further swimmer of your family: ₹31,500 (10% off).')

    const submitted = await parent.post('/onboarding', values)
    expect(submitted.status).toBe(302)
    // Before the gateway: each swimmer's fee, the sibling price, and the total the gateway asks.
    const summary = text((await parent.get(submitted.location!)).html)
    expect(summary).toContain('Camp fee for Meera Iyer ₹35,000.00 Camp fee for Kavya Iyer ₹35,000.00 Sibling price for Kavya Iyer −₹3,500.00 Total ₹66,500.00')
    const pay = await paySummary(parent, submitted.location!)
    const gateway = text((await parent.get(pay.location!)).html)
    expect(gateway).toContain('₹66,500.00')
    const back = await parent.post(pay.location!, { outcome: 'success' })
    const statusPage = text((await parent.get(back.location!)).html)
    expect(statusPage).toContain('₹66,500 payment completed successfully')
    // The status page's lines add up to what was paid, the sibling price among them.
    expect(statusPage).toContain('Camp fee for Meera Iyer ₹35,000.00 Camp fee for Kavya Iyer ₹35,000.00 Sibling price for Kavya Iyer −₹3,500.00 Amount ₹66,500.00')

    // Paid for: the family's next swimmers all pay the sibling price, and the form says so.
    expect(text((await parent.get('/onboarding')).html)).toContain('A swimmer of your family is already registered for this camp, so every swimmer you register now pays the sibling price: ₹31,500 (10% off).')

    // A guest with the family's e-mail address and phone number: the gateway shows the sibling price.
    const guest = new Visitor(site.url)
    const guestForm = { name: 'Anu Iyer', email: FAMILY.email.toUpperCase(), phone_number: FAMILY.phone, guardianDeclaration: 'on', camp: 'camp1', batch: 'batch2', website_url: '' }
    const held = await guest.post('/onboarding', guestForm)
    expect(held.status).toBe(302)
    const guestPay = await paySummary(guest, held.location!)
    const guestGateway = text((await guest.get(guestPay.location!)).html)
    expect(guestGateway).toContain('Camp Registration - Anu Iyer, at the sibling price (₹3,500.00 off): a swimmer of your family is registered already')
    expect(guestGateway).toContain('₹31,500.00')
    const failed = await guest.post(guestPay.location!, { outcome: 'failure' })
    expect(text((await guest.get(failed.location!)).html)).toContain('₹31,500')

    // The same address with another phone number is another family: the fee. (The failed payment
    // releases the guest's seat a moment later; until then the address may hold no other.)
    const other = new Visitor(site.url)
    let otherHeld = await other.post('/onboarding', { ...guestForm, phone_number: '98450 99999' })
    await expect.poll(async () => (otherHeld.status === 302 ? 302 : (otherHeld = await other.post('/onboarding', { ...guestForm, phone_number: '98450 99999' })).status), { timeout: 10_000, interval: 300 }).toBe(302)
    const otherGateway = text((await other.get((await paySummary(other, otherHeld.location!)).location!)).html)
    expect(otherGateway).toContain('₹35,000.00')
    expect(otherGateway).not.toContain('sibling price')
  })
})
