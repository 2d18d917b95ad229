import { describe, expect, it } from 'vitest'
import { decodeHtml, fieldState, lettersFor, text, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'
import { CAMP_SUMMARY, paySummary } from '../support/camp-summary'

// Camp registration as a parent's browser without JavaScript does it: the form, the gateway, the
// result page, e-mail over SMTP, and the waitlist of a full batch.

const site = useTestSite()

let family = 1
const form = (overrides: Record<string, string> = {}) => ({
  name: `Swimmer ${lettersFor(family)}`,
  email: `family${family++}@example.com`,
  phone_number: '98450 12345', guardianDeclaration: 'on',
  camp: 'camp1',
  batch: 'batch1',
  website_url: '',
  ...overrides,
})
/** The value a text field of the page holds. */
const valueOf = (html: string, name: string) => /value="([^"]*)"/.exec(new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? '')?.[1]

/** Submits the form and follows the parent past the summary to the gateway; returns where the gateway sends them after `outcome`. */
async function registerAndPay(visitor: Visitor, values: Record<string, string>, outcome: 'success' | 'failure') {
  const submitted = await visitor.post('/onboarding', values)
  expect(submitted.status).toBe(302)
  expect(submitted.location).toMatch(CAMP_SUMMARY)
  const pay = await paySummary(visitor, submitted.location!)
  expect(pay.headers.get('X-Remix-Reload-Document')).toBe('true')
  expect(pay.location).toMatch(new RegExp(`^${site.url}/sandbox-gateway/checkout/`))
  const back = await visitor.post(pay.location!, { outcome })
  return { checkoutUrl: pay.location!, statusUrl: back.location! }
}

describe('the registration form', () => {
  it('shows the form with its fields, the fee and the seats left from the database', async () => {
    const page = text((await new Visitor(site.url).get('/onboarding')).html)
    for (const line of ['Camp Registration Form', 'Fill in details to register for swimming camp', 'Full Name', 'Email Address', 'Phone Number', 'Select Camp', 'Select Batch', 'Register Now - ₹35,000']) {
      expect(page).toContain(line)
    }
    // The year and the early-bird deadline say exactly which summer, and until when the price holds.
    expect(page).toMatch(/Camp 1: 8–16 August (\d{4}) ₹35,000, early-bird price until 15 July \1/)
    expect(page).toMatch(/Camp 2: 18–26 August \d{4} ₹35,000, early-bird price until 15 July \d{4}/)
    expect(page).toMatch(/Batch 1: 9:00 AM - 10:30 AM and 1:00 PM - 2:30 PM Camp 1: 30 seats left · Camp 2: 30 seats left/)
    expect(page).toMatch(/Batch 2: 10:30 AM - 12:00 PM and 2:30 PM - 4:00 PM/)
  })

  it('puts each field’s message next to it and keeps what was typed', async () => {
    const response = await new Visitor(site.url).post('/onboarding', { name: 'A', email: 'nope', phone_number: '12345', website_url: '' })
    expect(response.status).toBe(400)
    expect(fieldState(response.html, 'name')).toEqual({ invalid: true, message: 'Name must be at least 2 characters' })
    expect(fieldState(response.html, 'email')).toEqual({ invalid: true, message: 'Invalid email address' })
    expect(fieldState(response.html, 'phone_number')).toEqual({ invalid: true, message: 'Phone number must be at least 10 digits' })
    const page = text(response.html)
    expect(page).toMatch(/Select Camp .* Please select a camp/)
    expect(page).toMatch(/Select Batch .* Please select a batch/)
    expect(response.html).toMatch(/value="nope"/)
  })
})

describe('registering and paying', () => {
  it('form → gateway → Registration Complete! with the details, the e-mail with its .ics, and Register Another Person', async () => {
    const parent = new Visitor(site.url)
    const values = form({ name: 'Arjun Menon', email: 'menon.family@example.com', camp: 'camp2', batch: 'batch2' })
    const { statusUrl } = await registerAndPay(parent, values, 'success')
    expect(statusUrl).toMatch(new RegExp(`^${site.url}/payment-status\\?orderId=CAMP_[\\w-]+&key=[\\w-]{32}$`))
    const result = text((await parent.get(statusUrl)).html)
    expect(result).toContain('Registration Complete!')
    expect(result).toContain("₹35,000 payment completed successfully. You're registered for the camp!")
    for (const line of ['Arjun Menon', 'menon.family@example.com', 'Camp 2: 18–26 August', 'Batch 2: 10:30 AM - 12:00 PM and 2:30 PM - 4:00 PM', '₹35,000.00', 'Status Completed']) {
      expect(result).toContain(line)
    }
    expect(result).toMatch(/Transaction ID SBXT/)

    const another = /href="(\/onboarding\?email=[^"]+)"[^>]*>Register Another Person/.exec((await parent.get(statusUrl)).html)
    expect(another).not.toBeNull()
    const next = await parent.get(decodeHtml(another![1]!))
    expect(fieldState(next.html, 'email')).toEqual({ invalid: false, message: undefined })
    expect(next.html).toMatch(/name="email"[^>]*value="menon.family@example.com"|value="menon.family@example.com"[^>]*name="email"/)
    // Kept in E.164, shown as people read it.
    expect(next.html).toMatch(/value="\+91 98450 12345"/)
    expect(next.html).not.toMatch(/value="Arjun Menon"/)

    const mail = await site.sink.waitForMailTo('menon.family@example.com', /Camp registration confirmed/)
    expect(mail.raw).toMatch(/Content-Type: text\/calendar/)
  })

  it('the same swimmer and e-mail for the same camp again gets a clear message, not a second registration', async () => {
    const values = form({ name: 'Dia Shah', email: 'shah@example.com' })
    await registerAndPay(new Visitor(site.url), values, 'success')
    await site.sink.waitForMailTo('shah@example.com', /Camp registration confirmed/)
    const again = await new Visitor(site.url).post('/onboarding', { ...values, name: 'dia shah', batch: 'batch2' })
    expect(again.status).toBe(409)
    expect(text(again.html)).toContain('dia shah is already registered for Camp 1 with this e-mail address.')
    // Try Again keeps what the parent typed: the form once more, without the message.
    const tryAgain = /<button[^>]*>Try Again/.exec(again.html)?.[0] ?? ''
    expect([tryAgain.includes('name="intent"'), tryAgain.includes('value="edit"')]).toEqual([true, true])
    const retry = await new Visitor(site.url).post('/onboarding', { ...values, name: 'dia shah', batch: 'batch2', intent: 'edit' })
    expect(retry.status).toBe(200)
    expect([valueOf(retry.html, 'name'), valueOf(retry.html, 'email'), fieldState(retry.html, 'name').invalid]).toEqual(['dia shah', 'shah@example.com', false])
    expect(retry.html).toMatch(/<input[^>]*value="batch2"[^>]*checked=""|<input[^>]*checked=""[^>]*value="batch2"/)
    expect(text(retry.html)).not.toContain('already registered')
    // A sister with the same e-mail is welcome.
    expect((await new Visitor(site.url).post('/onboarding', { ...values, name: 'Riya Shah' })).status).toBe(302)
  })

  it('a declined payment says Payment Failed and offers Try Again, which opens the form with what the parent typed', async () => {
    const values = form({ camp: 'camp2', batch: 'batch2' })
    const parent = new Visitor(site.url)
    const { statusUrl } = await registerAndPay(parent, values, 'failure')
    const page = (await parent.get(statusUrl)).html
    expect(text(page)).toContain('Payment Failed')
    const tryAgain = /<form[^>]*action="\/onboarding"[^>]*>([\s\S]*?)<\/form>/.exec(page)
    expect(tryAgain?.[1]).toContain('Try Again')
    const hidden = Object.fromEntries([...tryAgain![1]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((match) => [match[1]!, match[2]!]))
    const again = await parent.post('/onboarding', { ...hidden, intent: 'edit', website_url: '' })
    expect(again.status).toBe(200)
    for (const [name, value] of [['name', values.name], ['email', values.email], ['phone_number', '\\+91 98450 12345']]) expect(again.html).toMatch(new RegExp(`name="${name}"[^>]*value="${value}"|value="${value}"[^>]*name="${name}"`))
    const chosen = (name: string) => [...again.html.matchAll(new RegExp(`<input[^>]*name="${name}"[^>]*>`, 'g'))].filter((input) => /\schecked=""/.test(input[0])).map((input) => /value="([^"]*)"/.exec(input[0])![1])
    expect([chosen('camp'), chosen('batch')]).toEqual([['camp2'], ['batch2']])
  })

  it('the result page and its JSON need the key the site put in the link', async () => {
    const { statusUrl } = await registerAndPay(new Visitor(site.url), form(), 'success')
    const orderId = new URL(statusUrl).searchParams.get('orderId')!
    const stranger = new Visitor(site.url)
    for (const path of [`/payment-status?orderId=${orderId}`, `/payment-status?orderId=${orderId}&key=${'x'.repeat(32)}`]) {
      const page = await stranger.get(path)
      expect(page.status).toBe(404)
      expect(text(page.html)).toContain('Payment record not found')
      expect(page.html).not.toContain('@example.com')
    }
    expect((await stranger.get(`/payment-status/check?orderId=${orderId}`)).status).toBe(404)
    // The link's order named as its transaction id (as the lab's first site's links do) opens with the key, and only with it.
    const key = new URL(statusUrl).searchParams.get('key')!
    const asTransaction = await stranger.get(`/payment-status?${new URLSearchParams({ transactionId: orderId, key })}`)
    expect([asTransaction.status, text(asTransaction.html).includes('Registration Complete!')]).toEqual([200, true])
    expect((await stranger.get(`/payment-status?transactionId=${orderId}`)).status).toBe(404)
    // The gateway's transaction id, from the receipt or a bank statement, finds the same order, with the key only.
    const gatewayTransaction = /Transaction ID\s*([\w-]+)/.exec(text(asTransaction.html))![1]!
    expect(gatewayTransaction).not.toBe(orderId)
    const byGateway = await stranger.get(`/payment-status?${new URLSearchParams({ transactionId: gatewayTransaction, key })}`)
    expect([byGateway.status, text(byGateway.html).includes('Registration Complete!')]).toEqual([200, true])
    expect((await stranger.get(`/payment-status?transactionId=${gatewayTransaction}`)).status).toBe(404)
    const missing = await stranger.get('/payment-status')
    expect(text(missing.html)).toContain('No transaction ID found in URL')
  })
})

/** Holds every seat of a batch, each for another family; returns them with their seat's summary. */
async function fill(camp: string, batch: string, seats: number) {
  const holders: Array<{ visitor: Visitor; summary: string }> = []
  for (let index = 0; index < seats; index += 1) {
    const visitor = new Visitor(site.url)
    const submitted = await visitor.post('/onboarding', form({ camp, batch }))
    expect(submitted.status).toBe(302)
    holders.push({ visitor, summary: submitted.location! })
  }
  return holders
}

/** A family holding a seat goes on to pay, and the payment is declined. */
async function paymentDeclined({ visitor, summary }: { visitor: Visitor; summary: string }) {
  await visitor.post((await paySummary(visitor, summary)).location!, { outcome: 'failure' })
}

/** The link of the e-mail that asks to confirm a waitlist place. */
async function confirmationLink(email: string) {
  const mail = await site.sink.waitForMailTo(email, /Please confirm your waitlist place/)
  const link = /(http:\/\/\S+\/onboarding\/waitlist\?entry=\d+&key=[\w-]+)/.exec(mail.text)
  expect(link).not.toBeNull()
  return link![1]!
}

/** Opens the link and presses the page's button, as a browser without JavaScript does. */
async function confirmPlace(visitor: Visitor, link: string) {
  const page = await visitor.get(link)
  expect(page.status).toBe(200)
  expect(text(page.html)).toContain('Keep my place')
  const action = decodeHtml(/<form[^>]*method="post"[^>]*action="([^"]+)"/.exec(page.html)?.[1] ?? /<form[^>]*action="([^"]+)"[^>]*method="post"/.exec(page.html)?.[1] ?? '')
  expect(action).toMatch(/^\/onboarding\/waitlist\?entry=\d+&key=/)
  const confirmed = await visitor.post(action, { website_url: '' })
  expect(confirmed.status).toBe(302)
  return text((await visitor.get(confirmed.location!)).html)
}

const offersTo = (email: string) => site.sink.messages.filter((message) => message.to.includes(email) && /A seat is free/.test(message.raw))

describe('a full batch', () => {
  it('offers its waitlist, whose place the parent confirms through the e-mailed link; a seat freed by a failed payment is held for them, and they pay through the next link', async () => {
    // Fill Batch 1 of Camp 2: 30 seats, each held by a different family.
    const holders = await fill('camp2', 'batch1', 30)
    const page = text((await new Visitor(site.url).get('/onboarding')).html)
    expect(page).toMatch(/Batch 1: 9:00 AM - 10:30 AM and 1:00 PM - 2:30 PM Camp 1: \d+ seats? left · Camp 2: Full/)

    const late = new Visitor(site.url)
    const values = form({ name: 'Late Comer', email: 'late.comer@example.com', camp: 'camp2', batch: 'batch1' })
    const full = await late.post('/onboarding', values)
    expect(full.status).toBe(409)
    expect(text(full.html)).toContain('Batch 1 of Camp 2 is full. You can join its waitlist')
    // Try Again leads back to the form with the details typed, to choose another batch.
    const backToForm = await late.post('/onboarding', { ...values, intent: 'edit' })
    expect(valueOf(backToForm.html, 'name')).toBe('Late Comer')
    expect(backToForm.html).toMatch(/<input[^>]*value="camp2"[^>]*checked=""|<input[^>]*checked=""[^>]*value="camp2"/)
    const fullTryAgain = /<button[^>]*>Try Again/.exec(full.html)?.[0] ?? ''
    expect([fullTryAgain.includes('name="intent"'), fullTryAgain.includes('value="edit"')]).toEqual([true, true])
    const waitlistButton = full.html.match(/<button[^>]*>Join the waitlist/)?.[0] ?? ''
    expect(waitlistButton).toContain('name="intent"')
    expect(waitlistButton).toContain('value="waitlist"')
    const joined = await late.post('/onboarding', { ...values, intent: 'waitlist' })
    expect(joined.status).toBe(200)
    expect(text(joined.html)).toContain('Please check your e-mail')
    expect(text(joined.html)).toContain('Batch 1 of Camp 2 is full. We have e-mailed late.comer@example.com a link to confirm the place on its waitlist.')
    expect(text(joined.html)).toMatch(/Please open the link and press the button by \d{1,2}:\d{2} [AP]M IST on .+ to keep the place/)

    const link = await confirmationLink('late.comer@example.com')
    // Opening the link (as a mail scanner does) confirms nothing; another key is refused like any private link.
    expect(text((await new Visitor(site.url).get(link)).html)).toContain('Keep your place on the waitlist')
    for (const wrong of [link.replace(/key=[\w-]+/, `key=${'a'.repeat(32)}`), link.replace(/key=[\w-]+/, ''), link.replace(/entry=\d+/, 'entry=999999')]) {
      expect((await new Visitor(site.url).get(wrong)).status).toBe(404)
      expect((await new Visitor(site.url).post(wrong, { website_url: '' })).status).toBe(404)
    }
    const confirmed = await confirmPlace(late, link)
    expect(confirmed).toContain("You're on the waitlist")
    expect(confirmed).toContain('Late Comer is number 1 on the waitlist of Batch 1.')

    // One family's payment is declined: the seat goes to the waitlist, not to the form.
    await paymentDeclined(holders[0]!)
    const offer = await site.sink.waitForMailTo('late.comer@example.com', /A seat is free/)
    const offerLink = /(http:\/\/[^\s]+\/onboarding\/offer\?registration=CMP-\d+&key=[\w-]+)/.exec(offer.text)
    expect(offerLink).not.toBeNull()
    expect((await new Visitor(site.url).post('/onboarding', form({ camp: 'camp2', batch: 'batch1' }))).status).toBe(409)
    expect(text((await late.get(link)).html)).toContain('A camp seat is held for you')

    const offerPage = await late.get(offerLink![1]!)
    expect(text(offerPage.html)).toContain('A camp seat is held for you')
    expect(text(offerPage.html)).toContain('Late Comer')
    const tampered = await late.get(offerLink![1]!.replace(/key=[\w-]+/, `key=${'a'.repeat(32)}`))
    expect(tampered.status).toBe(404)

    const pay = await paySummary(late, offerLink![1]!)
    expect(pay.status).toBe(302)
    const back = await late.post(pay.location!, { outcome: 'success' })
    expect(text((await late.get(back.location!)).html)).toContain('Registration Complete!')
    expect(text((await late.get(offerLink![1]!)).html)).toContain('Already registered')
    expect(text((await late.get(link)).html)).toContain('Already registered')
  })
})

describe('the waitlist cannot freeze a camp', () => {
  it('one client with many e-mail addresses: refused on a batch with free seats, 3 places at most on a full one, and places nobody confirmed get no seat', async () => {
    const attacker = new Visitor(site.url)
    const fake = (index: number, batch: string) => form({ name: `Fake Swimmer ${lettersFor(index + 1)}`, email: `fake${index}@example.com`, camp: 'camp1', batch, intent: 'waitlist' })
    const seatsLeft = async () => /Batch 2: [^C]*Camp 1: (\d+ seats? left|Full)/.exec(text((await new Visitor(site.url).get('/onboarding')).html))![1]

    // Batch 2 of Camp 1 has free seats: nobody may queue for it.
    for (let index = 1; index <= 5; index += 1) {
      const refused = await attacker.post('/onboarding', fake(index, 'batch2'))
      expect(refused.status).toBe(409)
      expect(text(refused.html)).toContain('Batch 2 of Camp 1 still has free seats, so there is no need to wait. Please register for it instead.')
      expect(refused.html).not.toMatch(/>Join the waitlist/)
    }
    expect(await seatsLeft()).toBe('30 seats left')
    expect(site.sink.messages.filter((message) => message.to.some((to) => to.startsWith('fake')))).toEqual([])

    // A real parent registers and pays as if nothing had happened.
    const { statusUrl } = await registerAndPay(new Visitor(site.url), form({ name: 'Real Swimmer', email: 'real.parent@example.com', camp: 'camp1', batch: 'batch2' }), 'success')
    expect(text((await new Visitor(site.url).get(statusUrl)).html)).toContain('Registration Complete!')

    // Full now: the client gets 3 places, then a clear refusal.
    const holders = await fill('camp1', 'batch2', 29)
    expect(await seatsLeft()).toBe('Full')
    for (let index = 6; index <= 8; index += 1) expect((await attacker.post('/onboarding', fake(index, 'batch2'))).status).toBe(200)
    const capped = await attacker.post('/onboarding', fake(9, 'batch2'))
    expect(capped.status).toBe(429)
    expect(text(capped.html)).toContain('Your internet connection already holds 3 places on our camp waitlists, the most we allow.')

    // A seat frees up: unconfirmed places keep it from nobody, so a newcomer takes it.
    await paymentDeclined(holders[0]!)
    await expect.poll(seatsLeft, { timeout: 10_000 }).toBe('1 seat left')
    expect((await new Visitor(site.url).post('/onboarding', form({ camp: 'camp1', batch: 'batch2' }))).status).toBe(302)

    // A real parent joins and confirms; the next freed seat is offered to them, not to the earlier, unconfirmed places.
    const patient = new Visitor(site.url)
    const values = form({ name: 'Patient Swimmer', email: 'patient.parent@example.com', camp: 'camp1', batch: 'batch2' })
    expect((await patient.post('/onboarding', { ...values, intent: 'waitlist' })).status).toBe(200)
    expect(await confirmPlace(patient, await confirmationLink('patient.parent@example.com'))).toContain('Patient Swimmer is number 1 on the waitlist of Batch 2.')
    await paymentDeclined(holders[1]!)
    const offer = await site.sink.waitForMailTo('patient.parent@example.com', /A seat is free/)
    for (let index = 6; index <= 8; index += 1) expect(offersTo(`fake${index}@example.com`)).toEqual([])
    const offerLink = /(http:\/\/[^\s]+\/onboarding\/offer\?registration=CMP-\d+&key=[\w-]+)/.exec(offer.text)![1]!
    const pay = await paySummary(patient, offerLink)
    const back = await patient.post(pay.location!, { outcome: 'success' })
    expect(text((await patient.get(back.location!)).html)).toContain('Registration Complete!')
  })
})

describe('a rush of parents', () => {
  it('answers each at once (in a rush, with their place in line); seats go to the first to arrive, the rest are told the batch is full', async () => {
    const form2 = text((await new Visitor(site.url).get('/onboarding')).html)
    const left = Number(/Batch 2: [^C]*Camp 1: [^C]*Camp 2: (\d+) seats? left/.exec(form2)![1])
    expect(left).toBeGreaterThan(20)
    const parents = Array.from({ length: left + 15 }, () => new Visitor(site.url))
    // Each on a network of their own, as parents at home are.
    const answers = await Promise.all(parents.map((visitor, index) => visitor.post('/onboarding', form({ camp: 'camp2', batch: 'batch2' }), { 'X-Forwarded-For': `10.77.0.${index + 1}` })))
    const inLine = answers.filter((answer) => answer.status === 303)
    // A parent in line opens their page (pressing its button, as without JavaScript) until their turn has come.
    const outcomes = await Promise.all(
      answers.map(async (answer, index) => {
        if (answer.status !== 303) return answer
        expect(answer.location).toMatch(/^\/onboarding\/line\?place=\d+&key=[\w-]+$/)
        for (;;) {
          const page = await parents[index]!.get(answer.location!)
          if (page.status !== 200) return page
          expect(text(page.html)).toMatch(/You are number \d+ in line for Batch 2 of Camp 2\./)
        }
      }),
    )
    const seats = outcomes.filter((outcome) => outcome.status === 302)
    const full = outcomes.filter((outcome) => outcome.status === 409)
    expect(seats).toHaveLength(left)
    expect(full).toHaveLength(15)
    for (const seat of seats) expect(seat.location).toMatch(CAMP_SUMMARY)
    for (const answer of full) {
      expect(text(answer.html)).toContain('Batch 2 of Camp 2 is full. You can join its waitlist: we e-mail you as soon as a seat frees up.')
      expect(answer.html).toMatch(/>Join the waitlist</)
    }

    // Whether anyone waits in line depends on how many arrive at once on this instance: a seat's
    // answer no longer waits for the gateway, so a quick instance may answer every parent directly.
    if (inLine.length === 0) return
    // The link to a place works only with its key, and once settled it leads to the same outcome again.
    const link = inLine[0]!.location!
    expect((await new Visitor(site.url).get(link.replace(/key=[\w-]+/, 'key=forged'))).status).toBe(404)
    expect((await new Visitor(site.url).get(link.replace(/place=\d+/, 'place=1'))).status).toBe(404)
    const again = await parents[answers.indexOf(inLine[0]!)]!.get(link)
    expect([302, 409]).toContain(again.status)

    // A parent who held a seat from the line and paid finds the payment's page through the same link.
    const seated = answers.findIndex((answer, index) => answer.status === 303 && outcomes[index]!.status === 302)
    expect(seated).toBeGreaterThanOrEqual(0)
    const parent = parents[seated]!
    await parent.post((await paySummary(parent, outcomes[seated]!.location!)).location!, { outcome: 'success' })
    // Until the gateway's notification confirms the payment, the link leads to the seat's summary.
    const reopened = async () => (await parent.get(answers[seated]!.location!)).location ?? ''
    await expect.poll(reopened, { timeout: 10_000 }).toMatch(new RegExp(`^${site.url}/payment-status\\?orderId=CAMP_`))
    expect(text((await parent.get(await reopened())).html)).toContain('Registration Complete!')
  })
})
