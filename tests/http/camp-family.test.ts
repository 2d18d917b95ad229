import { describe, expect, it } from 'vitest'
import { FAMILY, useFamilySite } from '../support/family-site'
import { text, Visitor } from '../support/visitor'

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
    expect(submitted.location).toMatch(new RegExp(`^${site.url}/sandbox-gateway/checkout/`))
    expect(text((await parent.get(submitted.location!)).html)).toContain('70,000')
    const back = await parent.post(submitted.location!, { outcome: 'success' })
    const statusPage = text((await parent.get(back.location!)).html)
    expect(statusPage).toContain('Registration Complete!')
    expect(statusPage).toContain('₹70,000 payment completed successfully')
    expect(statusPage).toMatch(/Swimmer Meera Iyer \(Registration ID CMP-\d{10}, ₹35,000\.00\)/)
    expect(statusPage).toMatch(/Swimmer Kavya Iyer \(Registration ID CMP-\d{10}, ₹35,000\.00\)/)

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
