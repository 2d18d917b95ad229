import { describe, expect, it } from 'vitest'
import { decodeHtml, fieldState, signUp, text, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'
import { CAMP_SUMMARY, paySummary } from '../support/camp-summary'

// The camps section of the admin console as staff use it in a browser without JavaScript: who may
// open it, camps and batches created and edited, and registrations seen, moved, cancelled with a
// refund and exported, with parents told by e-mail over SMTP.

const site = useTestSite()

const escape = (name: string) => name.replace(/[[\].]/g, '\\$&')

/** Like fieldState, for the fields of a list too (whose names and ids hold brackets and dots). */
function batchFieldState(html: string, name: string) {
  const tag = new RegExp(`<input[^>]*name="${escape(name)}"[^>]*>`).exec(html)![0]
  const errorId = /aria-describedby="([^"]+)"/.exec(tag)?.[1]?.split(' ').find((id) => id.endsWith('-error'))
  const message = errorId ? new RegExp(`id="${escape(errorId)}"[^>]*>([^<]*)<`).exec(html)?.[1] : undefined
  return { invalid: /aria-invalid="true"/.test(tag), message }
}

/** What a browser would submit for the text inputs named `names` (the values the page shows). */
function inputValues(html: string, names: string[]) {
  return Object.fromEntries(
    names.map((name) => {
      const tag = new RegExp(`<input[^>]*name="${escape(name)}"[^>]*>`).exec(html)?.[0]
      if (!tag) throw new Error(`no input ${name}`)
      return [name, decodeHtml(/value="([^"]*)"/.exec(tag)?.[1] ?? '')]
    }),
  )
}

/** Public pages read camps from a cache that PostgreSQL's NOTIFY clears a moment after a change. */
const PAGE_CACHE = { timeout: 10_000, interval: 200 }

const CAMP_FIELDS = ['name', 'startsOn', 'endsOn', 'venue', 'earlyBirdPrice', 'regularPrice', 'earlyBirdDeadline']

/** The camp form as the page fills it in, with the registration choice the page has checked. */
function campForm(html: string) {
  const checked = html.match(/<input[^>]*name="registration"[^>]*>/g)?.find((tag) => tag.includes('checked=""'))
  return { ...inputValues(html, CAMP_FIELDS), registration: /value="(\w+)"/.exec(checked ?? '')?.[1] ?? '', intent: 'update-camp' }
}

/** The sibling price the camp form has checked. */
function checkedSiblingPrice(html: string) {
  const checked = html.match(/<input[^>]*name="siblingPrice"[^>]*>/g)?.find((tag) => tag.includes('checked=""'))
  return /value="(\w+)"/.exec(checked ?? '')?.[1]
}

/** The ids of a camp page's batches, in the order the page shows them. */
const batchIds = (html: string) => [...html.matchAll(/name="batchId" value="(\d+)"/g)].map((match) => match[1]!)

/** The "Add a batch" form, last on a camp's page (each batch's own form has fields of the same names). */
const addBatchForm = (html: string) => html.slice(html.indexOf('id="add-batch"'))

const batchForm = (batchId: string, values: Record<string, string>) => ({ batchId, start2: '', end2: '', intent: 'update-batch', ...values })

describe('who may open the camps pages', () => {
  it('guests are sent to sign in and brought back; customers are refused with 403, and change nothing', async () => {
    const guest = new Visitor(site.url)
    for (const path of ['/admin/camps', '/admin/camps/camp1', '/admin/camps/camp1/registrations.csv']) {
      const response = await guest.get(path)
      expect(response.status).toBe(302)
      expect(response.location).toBe(`/login?${new URLSearchParams({ redirectTo: path })}`)
    }
    expect((await guest.post('/admin/camps/camp1', { intent: 'update-camp' })).location).toBe('/login?redirectTo=%2Fadmin%2Fcamps%2Fcamp1')

    const customer = await signUp(new Visitor(site.url), site.sink, { email: 'parent.customer@example.com', name: 'Parent Customer' })
    for (const path of ['/admin/camps', '/admin/camps/camp1', '/admin/camps/camp1/registrations.csv']) {
      const response = await customer.get(path)
      expect(response.status).toBe(403)
      expect(response.html).not.toContain('Camp details')
    }
    const admin = await site.staff()
    const closing = { ...campForm((await admin.get('/admin/camps/camp1')).html), registration: 'closed' }
    expect((await customer.post('/admin/camps/camp1', closing)).status).toBe(403)
    expect((await customer.post('/admin/camps', { code: 'sneaky' })).status).toBe(403)
    // The staff's page reads the database itself (no cache): nothing changed.
    expect(campForm((await admin.get('/admin/camps/camp1')).html).registration).toBe('open')
  })
})

describe('camps and batches', () => {
  it('lists the camps; a new camp gets a second batch row without JavaScript, and is created with both batches', async () => {
    const admin = await site.staff()
    const list = await admin.get('/admin/camps')
    expect(list.status).toBe(200)
    expect(list.html).toMatch(/<a[^>]*href="\/admin\/camps"[^>]*>Camps<\/a>/)
    const page = text(list.html)
    expect(page).toMatch(/Camp 1 \d+ August 20\d\d to \d+ August 20\d\d PDCSE, Bangalore ₹35,000.00 until 15 July 20\d\d, then ₹40,000.00 Open/)
    expect(page).toContain('Batch 1 (9:00 AM - 10:30 AM and 1:00 PM - 2:30 PM) 0 of 30 seats taken')

    const camp = { code: 'camp3', name: 'Camp 3', startsOn: '2030-12-20', endsOn: '2030-12-28', venue: 'PDCSE, Bangalore', earlyBirdPrice: '30,000', regularPrice: '36000.50', earlyBirdDeadline: '2030-11-30', registration: 'open' }
    const morning = { 'batches[0].name': 'Morning', 'batches[0].code': 'morning', 'batches[0].start1': '07:00', 'batches[0].end1': '08:30', 'batches[0].start2': '', 'batches[0].end2': '', 'batches[0].capacity': '20' }
    // The button a browser submits: Conform's list intent, as its name and value.
    const addRow = /<button([^>]*)>Add another batch/.exec(list.html)?.[1] ?? ''
    expect(addRow).toContain('name="__intent__"')
    const twoRows = await admin.post('/admin/camps', { ...camp, ...morning, __intent__: decodeHtml(/value="([^"]+)"/.exec(addRow)![1]!) })
    expect(twoRows.status).toBe(200)
    expect(inputValues(twoRows.html, ['code', 'regularPrice', 'batches[0].name', 'batches[1].name'])).toEqual({ code: 'camp3', regularPrice: '36000.50', 'batches[0].name': 'Morning', 'batches[1].name': '' })
    expect(batchFieldState(twoRows.html, 'batches[1].name')).toEqual({ invalid: false, message: undefined })

    const evening = { 'batches[1].name': 'Evening', 'batches[1].code': 'evening', 'batches[1].start1': '17:00', 'batches[1].end1': '18:00', 'batches[1].start2': '18:30', 'batches[1].end2': '19:30', 'batches[1].capacity': '12' }
    const created = await admin.post('/admin/camps', { ...camp, ...morning, ...evening })
    expect(created.status).toBe(302)
    expect(created.location).toBe('/admin/camps/camp3')
    const campPage = await admin.get('/admin/camps/camp3')
    expect(text(campPage.html)).toContain('Camp created')
    expect(text(campPage.html)).toMatch(/Morning 7:00 AM - 8:30 AM\. 0 of 20 seats taken\..*Evening 5:00 PM - 6:00 PM and 6:30 PM - 7:30 PM\. 0 of 12 seats taken\./)
    expect(inputValues(campPage.html, ['earlyBirdPrice', 'regularPrice', 'earlyBirdDeadline'])).toEqual({ earlyBirdPrice: '30,000', regularPrice: '36,000.50', earlyBirdDeadline: '2030-11-30' })
    await expect.poll(async () => text((await new Visitor(site.url).get('/onboarding')).html), PAGE_CACHE).toContain('Camp 3: 20–28 December 2030 ₹30,000, early-bird price until 30 November 2030')
    // Without JavaScript the form lists every open camp's batches; one the chosen camp lacks is explained.
    const parent = new Visitor(site.url)
    const wrongBatch = await parent.post('/onboarding', { name: 'Kiran', email: 'kiran@example.com', phone_number: '98450 12345', guardianDeclaration: 'on', camp: 'camp3', batch: 'batch1', website_url: '' })
    expect(wrongBatch.status).toBe(400)
    expect(text(wrongBatch.html)).toContain('Camp 3 has no such batch. Please select one of its batches.')
  })

  it('shows each mistake next to its field with status 400, keeping what was typed; a code in use is refused', async () => {
    const admin = await site.staff()
    const invalid = await admin.post('/admin/camps', {
      code: 'Camp Four',
      name: '',
      startsOn: '2030-12-20',
      endsOn: '2030-12-10',
      venue: 'PDCSE, Bangalore',
      earlyBirdPrice: '35,000',
      regularPrice: '30,000',
      earlyBirdDeadline: '2030-12-25',
      registration: 'open',
      'batches[0].name': 'Dawn',
      'batches[0].code': 'dawn',
      'batches[0].start1': '08:00',
      'batches[0].end1': '07:00',
      'batches[0].capacity': 'lots',
    })
    expect(invalid.status).toBe(400)
    expect(fieldState(invalid.html, 'code')).toEqual({ invalid: true, message: 'Use up to 40 lower-case letters, digits, - or _' })
    expect(fieldState(invalid.html, 'name')).toEqual({ invalid: true, message: 'Please enter the camp’s name' })
    expect(fieldState(invalid.html, 'endsOn')).toEqual({ invalid: true, message: 'The last day cannot be before the first day' })
    expect(fieldState(invalid.html, 'regularPrice')).toEqual({ invalid: true, message: 'The regular price must be at least the early-bird price' })
    expect(fieldState(invalid.html, 'earlyBirdDeadline')).toEqual({ invalid: true, message: 'The early-bird price must end before the first day of the camp' })
    expect(batchFieldState(invalid.html, 'batches[0].end1')).toEqual({ invalid: true, message: 'The end time must be after the start time' })
    expect(batchFieldState(invalid.html, 'batches[0].capacity')).toEqual({ invalid: true, message: 'Please enter a whole number of seats from 0 to 500' })
    expect(fieldState(invalid.html, 'venue')).toEqual({ invalid: false, message: undefined })
    expect(inputValues(invalid.html, ['code', 'regularPrice', 'batches[0].capacity'])).toEqual({ code: 'Camp Four', regularPrice: '30,000', 'batches[0].capacity': 'lots' })

    const taken = await admin.post('/admin/camps', {
      code: 'camp1',
      name: 'Camp 1 again',
      startsOn: '2030-12-20',
      endsOn: '2030-12-28',
      venue: 'PDCSE, Bangalore',
      earlyBirdPrice: '35,000',
      regularPrice: '40,000',
      earlyBirdDeadline: '2030-11-30',
      registration: 'open',
      'batches[0].name': 'Dawn',
      'batches[0].code': 'dawn',
      'batches[0].start1': '06:00',
      'batches[0].end1': '07:00',
      'batches[0].capacity': '10',
    })
    expect(taken.status).toBe(409)
    expect(fieldState(taken.html, 'code')).toEqual({ invalid: true, message: 'Another camp already uses the code camp1' })

    for (const path of ['/admin/camps/camp9', '/admin/camps/camp9/registrations.csv']) expect((await admin.get(path)).status).toBe(404)
    expect((await admin.post('/admin/camps/camp9', { name: 'Dawn', code: 'dawn', start1: '06:00', end1: '07:00', capacity: '10', intent: 'add-batch' })).status).toBe(404)
  })

  it('edits the price and closes a camp: the public form shows it closed; a batch is added and edited', async () => {
    const admin = await site.staff()
    const before = (await admin.get('/admin/camps/camp2')).html
    expect(campForm(before)).toMatchObject({ earlyBirdPrice: '35,000', regularPrice: '40,000', registration: 'open' })
    const saved = await admin.post('/admin/camps/camp2', { ...campForm(before), regularPrice: '42,500', registration: 'closed' })
    expect(saved.status).toBe(302)
    expect(saved.location).toBe('/admin/camps/camp2')
    const after = (await admin.get('/admin/camps/camp2')).html
    expect(text(after)).toContain('Camp saved')
    expect(campForm(after)).toMatchObject({ regularPrice: '42,500', registration: 'closed' })
    expect(text(after)).toContain('Registration closed.')
    await expect.poll(async () => text((await new Visitor(site.url).get('/onboarding')).html), PAGE_CACHE).toMatch(/Camp 2: 18–26 August \d{4} Registration closed/)
    expect(text((await admin.get('/admin/camps')).html)).toMatch(/Camp 2 .* then ₹42,500.00 Closed/)

    const badPrice = await admin.post('/admin/camps/camp2', { ...campForm(after), earlyBirdPrice: '35,000.555' })
    expect(badPrice.status).toBe(400)
    expect(fieldState(badPrice.html, 'earlyBirdPrice')).toEqual({ invalid: true, message: 'Please enter the early-bird price in rupees, such as 35,000' })

    const added = await admin.post('/admin/camps/camp2', { name: 'Batch 3', code: 'batch3', start1: '16:00', end1: '17:30', start2: '', end2: '', capacity: '15', intent: 'add-batch' })
    expect(added.status).toBe(302)
    const withBatch3 = (await admin.get('/admin/camps/camp2')).html
    expect(text(withBatch3)).toContain('Batch 3 4:00 PM - 5:30 PM. 0 of 15 seats taken.')
    const duplicate = await admin.post('/admin/camps/camp2', { name: 'Batch 3 again', code: 'batch3', start1: '18:00', end1: '19:00', capacity: '15', intent: 'add-batch' })
    expect(duplicate.status).toBe(409)
    expect(fieldState(addBatchForm(duplicate.html), 'code')).toEqual({ invalid: true, message: 'Camp 2 already has a batch with the code batch3' })

    const batch3 = batchIds(withBatch3)[2]!
    const edited = await admin.post('/admin/camps/camp2', batchForm(batch3, { name: 'Late batch', code: 'batch3', start1: '16:30', end1: '18:00', capacity: '18' }))
    expect(edited.status).toBe(302)
    expect(text((await admin.get('/admin/camps/camp2')).html)).toContain('Late batch 4:30 PM - 6:00 PM. 0 of 18 seats taken.')
  })

  it('sets a sibling price with the prices: checked with clear messages, saved, audited, listed, and shown on the public form', async () => {
    const admin = await site.staff()
    const before = (await admin.get('/admin/camps/camp1')).html
    expect(checkedSiblingPrice(before)).toBe('none')
    const form = campForm(before)

    const noPercent = await admin.post('/admin/camps/camp1', { ...form, siblingPrice: 'percent', siblingPercent: '' })
    expect(noPercent.status).toBe(400)
    expect(fieldState(noPercent.html, 'siblingPercent')).toEqual({ invalid: true, message: 'Please enter the percentage off from 0.01 to 100, such as 10' })
    const tooMuch = await admin.post('/admin/camps/camp1', { ...form, siblingPrice: 'percent', siblingPercent: '120' })
    expect(fieldState(tooMuch.html, 'siblingPercent')).toEqual({ invalid: true, message: 'Please enter the percentage off from 0.01 to 100, such as 10' })
    const notRupees = await admin.post('/admin/camps/camp1', { ...form, siblingPrice: 'amount', siblingAmount: 'two thousand' })
    expect(fieldState(notRupees.html, 'siblingAmount')).toEqual({ invalid: true, message: 'Please enter the amount off in rupees, such as 2,000' })
    const wholeFee = await admin.post('/admin/camps/camp1', { ...form, siblingPrice: 'amount', siblingAmount: '40,000' })
    expect(wholeFee.status).toBe(400)
    expect(fieldState(wholeFee.html, 'siblingAmount')).toEqual({ invalid: true, message: 'The amount off must be less than the regular price (₹40,000.00)' })
    expect(campForm((await admin.get('/admin/camps/camp1')).html)).toEqual(form)

    const saved = await admin.post('/admin/camps/camp1', { ...form, siblingPrice: 'percent', siblingPercent: '12.5 %', siblingAmount: '' })
    expect(saved.status).toBe(302)
    const after = (await admin.get('/admin/camps/camp1')).html
    expect(text(after)).toContain('Camp saved')
    expect(inputValues(after, ['siblingPercent'])).toEqual({ siblingPercent: '12.5' })
    expect(checkedSiblingPrice(after)).toBe('percent')
    expect(text((await admin.get('/admin/camps')).html)).toMatch(/Camp 1 .* then ₹40,000.00 Sibling price: 12.5% off each further swimmer of a family Open/)
    expect(text((await admin.get('/admin/camps')).html)).toMatch(/Camp 2 .* then ₹[\d,.]+ (Open|Closed) Batch 1/)
    expect(text((await admin.get('/admin/audit')).html)).toContain('Changed Camp 1: sibling price none → 12.5% off')
    await expect.poll(async () => text((await new Visitor(site.url).get('/onboarding')).html), PAGE_CACHE).toContain('Each further swimmer of your family: ₹30,625 (12.5% off)')

    expect((await admin.post('/admin/camps/camp1', { ...form, siblingPrice: 'amount', siblingAmount: '2,000' })).status).toBe(302)
    expect(text((await admin.get('/admin/audit')).html)).toContain('Changed Camp 1: sibling price 12.5% off → ₹2,000 off')
    await expect.poll(async () => text((await new Visitor(site.url).get('/onboarding')).html), PAGE_CACHE).toContain('Each further swimmer of your family: ₹33,000 (₹2,000 off)')
    expect((await admin.post('/admin/camps/camp1', { ...form, siblingPrice: 'none', siblingAmount: '2,000' })).status).toBe(302)
    await expect.poll(async () => text((await new Visitor(site.url).get('/onboarding')).html), PAGE_CACHE).not.toContain('Each further swimmer')
  })

  it('a batch only one camp runs shows that camp’s seats on the form without JavaScript, and no "Full" for the camps without it', async () => {
    const admin = await site.staff()
    // Both camps open, so the form without JavaScript lists the batches of each.
    for (const camp of ['camp1', 'camp2']) expect((await admin.post(`/admin/camps/${camp}`, { ...campForm((await admin.get(`/admin/camps/${camp}`)).html), registration: 'open' })).status).toBe(302)
    expect((await admin.post('/admin/camps/camp1', { name: 'Twilight', code: 'twilight', start1: '18:00', end1: '19:30', start2: '', end2: '', capacity: '12', intent: 'add-batch' })).status).toBe(302)
    await expect.poll(async () => text((await new Visitor(site.url).get('/onboarding')).html), PAGE_CACHE).toContain('Twilight: 6:00 PM - 7:30 PM Camp 1: 12 seats left')
    expect(text((await new Visitor(site.url).get('/onboarding')).html)).not.toMatch(/Twilight: 6:00 PM - 7:30 PM Camp 1: 12 seats left ·/)
  })
})

describe('registrations', () => {
  let family = 1
  const form = (name: string, batch = 'batch1') => ({ name, email: `family${family++}@example.com`, phone_number: '98450 12345', guardianDeclaration: 'on', camp: 'camp1', batch, website_url: '' })

  /** A parent registers on /onboarding, confirms the summary and pays at the sandbox gateway; returns their e-mail. */
  async function registerAndPay(values: Record<string, string>) {
    const parent = new Visitor(site.url)
    const submitted = await parent.post('/onboarding', values)
    expect(submitted.location).toMatch(CAMP_SUMMARY)
    await parent.post((await paySummary(parent, submitted.location!)).location!, { outcome: 'success' })
    await site.sink.waitForMailTo(values.email!, /Camp registration confirmed/)
    return values.email!
  }

  it(
    'staff see registrations and the waitlist, move one, cancel one with a refund, and export them',
    async () => {
      const admin = await site.staff()
      const [batch1, batch2] = batchIds((await admin.get('/admin/camps/camp1')).html)
      const batch1Form = { name: 'Batch 1', code: 'batch1', start1: '09:00', end1: '10:30', start2: '13:00', end2: '14:30' }
      const batch2Form = { name: 'Batch 2', code: 'batch2', start1: '10:30', end1: '12:00', start2: '14:30', end2: '16:00' }
      expect((await admin.post('/admin/camps/camp1', batchForm(batch1!, { ...batch1Form, capacity: '2' }))).status).toBe(302)
      expect((await admin.post('/admin/camps/camp1', batchForm(batch2!, { ...batch2Form, capacity: '1' }))).status).toBe(302)

      const asha = await registerAndPay(form('Asha Rao'))
      const bina = await registerAndPay(form('Bina Das'))
      await registerAndPay(form('Chitra Pai', 'batch2'))
      const late = new Visitor(site.url)
      const lateValues = form('Late Comer')
      expect((await late.post('/onboarding', lateValues)).status).toBe(409)
      expect((await late.post('/onboarding', { ...lateValues, intent: 'waitlist' })).status).toBe(200)

      // Staff see that the place is not confirmed yet, and it is not counted.
      const unconfirmed = text((await admin.get('/admin/camps/camp1')).html)
      expect(unconfirmed).toContain('Batch 1 9:00 AM - 10:30 AM and 1:00 PM - 2:30 PM. 2 of 2 seats taken.')
      expect(unconfirmed).toMatch(/Waitlist \(0\) No one is waiting\. Not confirmed yet \(1\) Late Comer family\d+@example.com · \+91 98450 12345 Address not confirmed yet: not in the queue until the parent opens the e-mailed link; lapses after a day\. Joined/)

      const confirmLink = /(http:\/\/\S+\/onboarding\/waitlist\?entry=\d+&key=[\w-]+)/.exec((await site.sink.waitForMailTo(lateValues.email, /Please confirm your waitlist place/)).text)![1]!
      expect((await late.post(confirmLink, { website_url: '' })).status).toBe(302)
      const page = text((await admin.get('/admin/camps/camp1')).html)
      expect(page).toContain('Batch 1 9:00 AM - 10:30 AM and 1:00 PM - 2:30 PM. 2 of 2 seats taken, 1 waiting.')
      expect(page).toMatch(/Registrations \(2\) .*Asha Rao .*Confirmed ₹35,000.00 .*Bina Das .*Confirmed ₹35,000.00 .*Waitlist \(1\) Late Comer family\d+@example.com · \+91 98450 12345 Waiting; address confirmed \d{1,2}:\d{2} [AP]M IST on .+\. Joined/)
      expect(page).not.toContain('Not confirmed yet')

      // Fewer seats than are taken is refused, next to the field.
      const tooFew = await admin.post('/admin/camps/camp1', batchForm(batch1!, { ...batch1Form, capacity: '1' }))
      expect(tooFew.status).toBe(409)
      expect(fieldState(tooFew.html, 'capacity')).toEqual({ invalid: true, message: '2 seats are taken in Batch 1, so its capacity cannot be less than 2.' })
      expect(tooFew.html).toMatch(/<details[^>]*open=""[^>]*>\s*<summary[^>]*>Edit Batch 1/)

      const reference = (name: string, html: string) => new RegExp(`${name}</span>.*?(CMP-\\d{10})`, 's').exec(html)![1]!
      const ashaReference = reference('Asha Rao', (await admin.get('/admin/camps/camp1')).html)
      const full = await admin.post('/admin/camps/camp1', { reference: ashaReference, toBatch: 'batch2', intent: 'move' })
      expect(full.status).toBe(409)
      expect(fieldState(full.html, 'toBatch')).toEqual({ invalid: true, message: 'Batch 2 of Camp 1 is full: 1 of 1 seats are taken.' })

      expect((await admin.post('/admin/camps/camp1', batchForm(batch2!, { ...batch2Form, capacity: '30' }))).status).toBe(302)
      const moved = await admin.post('/admin/camps/camp1', { reference: ashaReference, toBatch: 'batch2', intent: 'move' })
      expect(moved.status).toBe(302)
      expect(text((await admin.get('/admin/camps/camp1')).html)).toMatch(/Registration moved .*Asha Rao is now in Batch 2/)
      expect((await site.sink.waitForMailTo(asha, /Camp batch changed/)).text).toMatch(/Batch 2: 10:30 AM - 12:00 PM and 2:30 PM - 4:00 PM, every day/)
      // The seat Asha left is held for the first in line.
      await site.sink.waitForMailTo(lateValues.email, /A seat is free/)
      const afterMove = text((await admin.get('/admin/camps/camp1')).html)
      expect(afterMove).toMatch(/Batch 1 .* 2 of 2 seats taken\. .*Bina Das .*Late Comer .*Awaiting payment .*Waitlist \(1\) Late Comer .* Seat offered; to pay by/)
      expect(afterMove).toMatch(/Batch 2 .* 2 of 30 seats taken\. .*Asha Rao .*Chitra Pai/)

      const binaReference = reference('Bina Das', (await admin.get('/admin/camps/camp1')).html)
      const unsure = await admin.post('/admin/camps/camp1', { reference: binaReference, intent: 'cancel' })
      expect(unsure.status).toBe(400)
      expect(text(unsure.html)).toMatch(/Cancel this registration: .*Please choose whether to refund the payment/)
      const cancelled = await admin.post('/admin/camps/camp1', { reference: binaReference, refund: 'yes', intent: 'cancel' })
      expect(cancelled.status).toBe(302)
      expect(text((await admin.get('/admin/camps/camp1')).html)).toMatch(/Registration cancelled Bina Das: A refund of ₹35,000.00 is on its way\./)
      expect((await site.sink.waitForMailTo(bina, /Camp registration cancelled/)).text).toContain('Your payment of ₹35,000.00 is being refunded')
      await site.sink.waitForMailTo(bina, /Refund completed/, 30_000)
      expect(text((await admin.get('/admin/camps/camp1')).html)).toMatch(/Bina Das .* Refunded ₹35,000.00/)
      // The refund's credit note, listed with the registration it refunds.
      expect(text((await admin.get('/admin/camps/camp1')).html)).toMatch(/Bina Das .* Refunded ₹35,000.00 Credit note SSL\/CN\d\d-\d\d\/0001 \(₹35,000.00 refunded, /)

      const csv = await admin.get('/admin/camps/camp1/registrations.csv')
      expect(csv.status).toBe(200)
      expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
      expect(csv.headers.get('Content-Disposition')).toBe('attachment; filename="camp1-registrations.csv"')
      const [header, ...rows] = csv.html.replace(/^\uFEFF/, '').trimEnd().split('\r\n')
      expect(header).toBe('Name,E-mail,Phone,Camp,Batch,Status,Amount (₹),Registration ID,Order ID,Registered at (IST)')
      const row = /^([^,]+),([^,]+),([^,]+),([^,]+),([^,]+),([^,]+),(\d+\.\d\d),(CMP-\d{10}),((?:CAMP_[\w-]+)?),(\d{4}-\d\d-\d\d \d\d:\d\d)$/
      expect(rows.map((line) => (row.exec(line) ?? [line]).slice(1, 9))).toEqual([
        ['Bina Das', bina, "'+919845012345", 'Camp 1', 'Batch 1', 'Refunded', '35000.00', binaReference],
        ['Late Comer', lateValues.email, "'+919845012345", 'Camp 1', 'Batch 1', 'Awaiting payment', '35000.00', expect.stringMatching(/^CMP-\d{10}$/)],
        ['Asha Rao', asha, "'+919845012345", 'Camp 1', 'Batch 2', 'Confirmed', '35000.00', ashaReference],
        ['Chitra Pai', expect.any(String), "'+919845012345", 'Camp 1', 'Batch 2', 'Confirmed', '35000.00', expect.stringMatching(/^CMP-\d{10}$/)],
      ])
      expect(rows.map((line) => row.exec(line)![9])).toEqual([expect.stringMatching(/^CAMP_/), '', expect.stringMatching(/^CAMP_/), expect.stringMatching(/^CAMP_/)])
    },
    90_000,
  )
})
