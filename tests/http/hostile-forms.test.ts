import { request as httpRequest } from 'node:http'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { addDays, labToday } from '~/lib/lab-time'
import { anyValue, hostileQuery, hostileSegment, invalidSubmission, MALFORMED_BODIES, OUT_OF_RANGE_DATES, OUT_OF_RANGE_MONTHS, type FormSpec } from '../support/hostile-input'
import { text, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'

// The real server, over HTTP, under malformed and hostile input: forms, page addresses, the JSON
// endpoints, the payment webhook and the sandbox gateway. Whatever arrives, the answer is never a
// 5xx, and a refused form comes back as its page with the message next to the field or in the
// form's alert. (That nothing is written is checked where the database can be read: the in-process
// twin of this file, app/routes/hostile-actions.test.ts.)

// Shrinking a case that holds 100 KB strings can take longer than the test may; the first failing case is reported as found.
fc.configureGlobal({ endOnFailure: true })

const site = useTestSite()
let customer: Visitor
let admin: Visitor
const RUNS = 8

beforeAll(async () => {
  customer = await site.customer('Hostile Swimmer', 'hostile@example.com')
  admin = await site.staff()
})

const future = addDays(labToday(), 20)
const ERROR_PAGE_TITLES = /<title>(Bad request|Something went wrong|We will be right back)<\/title>/

type Who = 'guest' | 'customer' | 'admin'
/** A fresh guest per request, so the rate limits of one attempt do not decide the next. */
const visitorFor = (who: Who) => (who === 'customer' ? customer : who === 'admin' ? admin : new Visitor(site.url))

/**
 * What no page sends: a filled-in honeypot (only bots fill it), a NUL character, a list index far
 * beyond any form. These are refused with 400 before the form is read, on the site's error page.
 */
function tampered(submission: URLSearchParams) {
  return [...submission].some(([name, value]) => (name === 'website_url' && value !== '') || `${name}${value}`.includes('\u0000') || /\[\d{4,}\]/.test(name))
}

/** A refused form shows its page again, with the message beside the field or in the form's alert. */
function expectFormMessage(response: { status: number; html: string; headers: Headers }, submission: URLSearchParams, label: string) {
  expect(response.status, label).toBeLessThan(500)
  if (response.status < 400) return
  expect(response.headers.get('Content-Type'), label).toMatch(/text\/html/)
  if (ERROR_PAGE_TITLES.test(response.html)) {
    expect(tampered(submission), `${label}: the error page instead of the form`).toBe(true)
    expect(response.status, label).toBe(400)
    expect(response.html, label).toContain('<title>Bad request</title>')
    return
  }
  // A field's message (its id ends in -error, and the field or its group points to it), or the form's alert.
  expect(response.html, label).toMatch(/aria-invalid="true"|role="alert"|<p id="[^"]+-error"/)
}

/** A request that gets no answer in 10 s fails with its address, instead of timing the whole test out. */
async function answered<T>(request: Promise<T>, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in 10 s: ${label}\n${site.server.logs().split('\n').slice(-15).join('\n')}`)), 10_000)
  })
  try {
    return await Promise.race([request, timeout])
  } finally {
    clearTimeout(timer)
  }
}

const FORMS: Array<{ name: string; path: string; who: Who; spec: FormSpec }> = [
  { name: 'login', path: '/login', who: 'guest', spec: { valid: { email: 'hostile@example.com', password: 'butterfly-2027', website_url: '' }, strict: { email: 'email', password: 'password' } } },
  {
    name: 'registration',
    path: '/registration',
    who: 'guest',
    spec: {
      valid: { name: 'Ravi Kumar', email: 'ravi@example.com', password: 'butterfly-2027', phone: '9845012345', age: '26', currentLocation: 'Bengaluru', gender: 'male', swimmingExperience: 'advanced', academyName: 'NA', coachName: 'NA', specialization: 'butterfly', participateInEvents: 'yes', howDidYouKnow: 'google', website_url: '' },
      strict: { name: 'name', email: 'email', password: 'password', age: 'count', gender: 'choice', swimmingExperience: 'choice', specialization: 'choice', participateInEvents: 'choice', howDidYouKnow: 'choice' },
    },
  },
  { name: 'verify-email', path: '/verify-email?email=ravi%40example.com', who: 'guest', spec: { valid: { email: 'ravi@example.com', code: '123456', password: 'owners-own-2027', website_url: '' }, strict: { email: 'email', code: 'code6', password: 'password' } } },
  { name: 'forgot-password', path: '/forgot-password', who: 'guest', spec: { valid: { email: 'hostile@example.com', website_url: '' }, strict: { email: 'email' }, fixed: { intent: 'request' } } },
  {
    name: 'password reset',
    path: '/forgot-password?email=hostile%40example.com',
    who: 'guest',
    spec: { valid: { email: 'hostile@example.com', code: '123456', password: 'new-password-1', confirmPassword: 'new-password-1', website_url: '' }, strict: { email: 'email', code: 'code6', password: 'password' }, fixed: { intent: 'reset' } },
  },
  { name: 'booking', path: '/booking', who: 'guest', spec: { valid: { name: 'Ravi Kumar', email: 'ravi@example.com', phone: '9845012345', service: 'race', date: future, time: '10:00', website_url: '' }, strict: { name: 'name', email: 'email', service: 'choice', date: 'date', time: 'time' } } },
  {
    name: 'booking for someone else',
    path: '/booking',
    who: 'guest',
    spec: {
      valid: { name: 'Ravi Kumar', email: 'ravi@example.com', phone: '9845012345', service: 'race', date: future, time: '10:00', whoSwims: 'someone_else', swimmerName: 'Kavya Kumar', swimmerAge: '12', guardianDeclaration: 'on', website_url: '' },
      strict: { name: 'name', email: 'email', swimmerName: 'name', swimmerAge: 'count' },
    },
  },
  { name: 'city alert', path: '/analysis-days', who: 'guest', spec: { valid: { email: 'hostile@example.com', city: 'Pune', website_url: '' }, strict: { email: 'email', city: 'name' } } },
  { name: 'camp registration', path: '/onboarding', who: 'guest', spec: { valid: { name: 'Ravi Kumar', email: 'ravi@example.com', phone_number: '9845012345', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch1', website_url: '' }, strict: { name: 'name', email: 'email' } } },
  {
    name: 'admin availability',
    path: '/admin/availability',
    who: 'admin',
    spec: { valid: { from: future, to: future, weekdays: '1', startTime: '10:00', endTime: '13:00', slotDurationMinutes: '60', capacity: '1' }, strict: { from: 'date', startTime: 'time', endTime: 'time', slotDurationMinutes: 'count', capacity: 'count' }, fixed: { intent: 'create' } },
  },
  {
    name: 'admin new booking',
    path: '/admin/bookings/new',
    who: 'admin',
    spec: { valid: { name: 'Ravi Kumar', email: 'ravi@example.com', product: 'single_race', date: future, time: '09:00', origin: 'offline', amount: '3,499', paymentMethod: 'Cash' }, strict: { name: 'name', email: 'email', product: 'choice', date: 'date', time: 'time', origin: 'choice', amount: 'rupees' } },
  },
  {
    name: 'admin new camp',
    path: '/admin/camps',
    who: 'admin',
    spec: {
      valid: { code: 'camp9', name: 'Camp 9', startsOn: addDays(future, 30), endsOn: addDays(future, 35), venue: 'Pool', earlyBirdPrice: '30,000', regularPrice: '35,000', earlyBirdDeadline: addDays(future, 10), registration: 'open', 'batches[0].name': 'Batch 1', 'batches[0].code': 'b1', 'batches[0].start1': '09:00', 'batches[0].end1': '10:00', 'batches[0].capacity': '10' },
      strict: { startsOn: 'date', endsOn: 'date', earlyBirdPrice: 'rupees', regularPrice: 'rupees', registration: 'choice', 'batches[0].start1': 'time', 'batches[0].capacity': 'count' },
    },
  },
  { name: 'admin camp', path: '/admin/camps/camp1', who: 'admin', spec: { valid: { name: 'Batch 9', code: 'batch9', start1: '16:00', end1: '17:00', capacity: '10' }, strict: { start1: 'time', end1: 'time', capacity: 'count' }, fixed: { intent: 'add-batch' } } },
  { name: 'admin price', path: '/admin/settings', who: 'admin', spec: { valid: { price: '3,999', regularPrice: '' }, strict: { price: 'rupees' }, fixed: { intent: 'price', code: 'single_race' } } },
  { name: 'admin refund repaid by hand', path: '/admin?index', who: 'admin', spec: { valid: { refundId: 'RFND_1234567890123_1_abcdefgh', how: 'Bank transfer, UTR 1234567890' }, strict: { how: 'note' } } },
  { name: 'admin gst', path: '/admin/settings', who: 'admin', spec: { valid: { legalName: 'Lab', gstin: '', gstRate: '18' }, strict: { gstRate: 'count' }, fixed: { intent: 'gst' } } },
]

describe('forms answer hostile submissions with their page and a message', () => {
  for (const form of FORMS) {
    it(form.name, async () => {
      await fc.assert(
        fc.asyncProperty(invalidSubmission(form.spec), async (submission) => {
          const response = await answered(visitorFor(form.who).post(form.path, submission), submission.toString().slice(0, 300))
          expectFormMessage(response, submission, `${form.name} ${submission.toString().slice(0, 300)}`)
        }),
        { numRuns: RUNS },
      )
    })
  }
})

describe('bodies that are not a form', () => {
  it.each(FORMS.map((form) => [form.name, form] as const))('%s: 4xx, never 500', async (_name, form) => {
    for (const body of MALFORMED_BODIES) {
      const headers: Record<string, string> = { Origin: site.url }
      if (body.contentType) headers['Content-Type'] = body.contentType
      const response = await fetch(`${site.url}${form.path}`, { method: 'POST', body: body.body ?? undefined, headers: { ...headers, Cookie: cookieOf(visitorFor(form.who)), 'X-Forwarded-For': '198.51.100.9' }, redirect: 'manual' })
      expect(response.status, `${form.name}: ${body.label}`).toBeLessThan(500)
      if (body.label === 'an empty form' || body.label === 'a form with broken percent-encoding') continue
      expect([400, 415], `${form.name}: ${body.label}`).toContain(response.status)
      const title = response.status === 415 ? 'Please send the form from its page' : 'Bad request'
      expect(await response.text(), `${form.name}: ${body.label}`).toContain(`<title>${title}</title>`)
    }
  })

  it('a price for an item that is not in the catalogue is "not found" (404), whatever else is sent', async () => {
    for (const code of ['0', 'no_such_item', '__proto__']) {
      const response = await admin.post('/admin/settings', { intent: 'price', code, price: '' })
      expect(response.status, code).toBe(404)
    }
  })

  it('a form larger than any page sends is refused with 413', async () => {
    // On a connection of its own: the server answers before the upload ends, and what a client then
    // does with that connection is the client's business, not the next test's.
    const body = `email=${'a'.repeat(2 * 1024 * 1024)}`
    const { status, html } = await new Promise<{ status: number; html: string }>((resolve, reject) => {
      const request = httpRequest(`${site.url}/login`, { method: 'POST', agent: false, headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body), Origin: site.url } }, (response) => {
        let html = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (html += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, html }))
      })
      request.on('error', reject)
      request.end(body)
    })
    expect(status).toBe(413)
    expect(html).toContain('<title>Too large</title>')
  })
})

const cookieOf = (visitor: Visitor) => [...visitor.cookies].map(([name, value]) => `${name}=${value}`).join('; ')

describe('JSON endpoints', () => {
  const endpoints = [
    { path: '/booking/times', names: ['date'] },
    { path: '/booking/check', names: ['orderId', 'key'] },
    { path: '/payment-status/check', names: ['orderId', 'key'] },
    { path: '/slot-payment-status/check', names: ['orderId'] },
  ]
  it.each(endpoints)('$path answers any query with JSON and never a 5xx', async ({ path, names }) => {
    await fc.assert(
      fc.asyncProperty(hostileQuery(names), async (query) => {
        const response = await answered(customer.get(`${path}?${query}`), `${path}?${query.slice(0, 300)}`)
        expect(response.status, query.slice(0, 300)).toBeLessThan(500)
        if (response.status >= 400 && response.status !== 431) {
          expect(response.headers.get('Content-Type'), query.slice(0, 300)).toMatch(/application\/json/)
          expect(JSON.parse(response.html), query.slice(0, 300)).toHaveProperty('error')
        }
      }),
      { numRuns: RUNS * 3 },
    )
  })

  it('repeated and array parameters are regression examples', async () => {
    for (const path of ['/booking/times?date=2026-02-30&date=2027-01-01', '/booking/times?date=%zz', '/booking/times?date=abc', '/payment-status/check?orderId[]=x', '/booking/check?orderId=a&orderId=b']) {
      const response = await customer.get(path)
      expect(response.status, path).toBeGreaterThanOrEqual(400)
      expect(response.status, path).toBeLessThan(500)
      expect(JSON.parse(response.html), path).toHaveProperty('error')
    }
  })
})

describe('pages with hostile addresses', () => {
  const pages: Array<{ path: string; names: string[]; who: Who }> = [
    { path: '/login', names: ['redirectTo'], who: 'guest' },
    { path: '/verify-email', names: ['email', 'code'], who: 'guest' },
    { path: '/forgot-password', names: ['email', 'code', 'done'], who: 'guest' },
    { path: '/booking', names: ['step', 'orderId', 'key', 'payment'], who: 'guest' },
    { path: '/booking/view', names: ['ref', 'key'], who: 'guest' },
    { path: '/onboarding', names: ['email', 'phone'], who: 'guest' },
    { path: '/onboarding/offer', names: ['registration', 'key'], who: 'guest' },
    { path: '/onboarding/waitlist', names: ['entry', 'key'], who: 'guest' },
    { path: '/payment-status', names: ['orderId', 'key'], who: 'guest' },
    { path: '/book-slot', names: ['month', 'date', 'time', 'confirm'], who: 'customer' },
    { path: '/slot-payment', names: ['booking'], who: 'customer' },
    { path: '/slot-payment-status', names: ['orderId'], who: 'customer' },
    { path: '/my-bookings', names: ['tab'], who: 'customer' },
    { path: '/admin/availability', names: ['month', 'date'], who: 'admin' },
    { path: '/admin/bookings', names: ['status', 'from', 'to', 'q', 'page', 'sort'], who: 'admin' },
    { path: '/admin/bookings.csv', names: ['status', 'from', 'to', 'q'], who: 'admin' },
    { path: '/admin/customers', names: ['q', 'page'], who: 'admin' },
    { path: '/admin/audit', names: ['type', 'before', 'page'], who: 'admin' },
    { path: '/admin/messages', names: ['page'], who: 'admin' },
  ]
  it.each(pages)('$path never answers 5xx', async ({ path, names, who }) => {
    await fc.assert(
      fc.asyncProperty(hostileQuery(names), async (query) => {
        const response = await answered(visitorFor(who).get(`${path}?${query}`), `${path}?${query.slice(0, 300)}`)
        expect(response.status, `${path}?${query.slice(0, 300)}`).toBeLessThan(500)
      }),
      { numRuns: RUNS * 2 },
    )
  })

  it('dates and months out of range (year 0, after 9999-11) and a NUL in the audit filter answer a page or a message, never a 5xx', async () => {
    const failures: string[] = []
    const expectAnswer = async (label: string, answer: Promise<{ status: number; html: string }>, expected?: { status: number; says?: string }) => {
      const response = await answered(answer, label)
      if (response.status >= 500) failures.push(`${response.status} ${label}`)
      else if (expected && response.status !== expected.status) failures.push(`${response.status} instead of ${expected.status}: ${label}`)
      else if (expected?.says && !text(response.html).includes(expected.says)) failures.push(`no "${expected.says}": ${label}`)
    }
    for (const date of OUT_OF_RANGE_DATES) {
      const real = date.length === 10
      await expectAnswer(`GET /book-slot?date=${date}`, customer.get(`/book-slot?date=${date}`), { status: 200 })
      await expectAnswer(`GET /booking/times?date=${date}`, customer.get(`/booking/times?date=${date}`), { status: 400 })
      await expectAnswer(`GET /admin/bookings?from=${date}&to=${date}`, admin.get(`/admin/bookings?from=${date}&to=${date}`), { status: 200 })
      await expectAnswer(`GET /admin/bookings.csv?from=${date}&to=${date}`, admin.get(`/admin/bookings.csv?from=${date}&to=${date}`), { status: 200 })
      await expectAnswer(`POST /book-slot ${date}`, customer.post('/book-slot', { date, time: '10:00', website_url: '' }), { status: 302 })
      const booking = { name: 'Ravi Kumar', email: 'ravi@example.com', phone: '9845012345', service: 'race', date, time: '10:00', website_url: '' }
      await expectAnswer(`POST /booking ${date}`, new Visitor(site.url).post('/booking', booking), { status: 400, says: real ? 'Choose a date from today up to a year ahead' : 'Please choose a date' })
      for (const intent of ['create', 'holiday']) {
        const hours = { intent, from: date, to: date, weekdays: '1', startTime: '10:00', endTime: '13:00', slotDurationMinutes: '60', capacity: '1' }
        await expectAnswer(`POST /admin/availability ${intent} ${date}`, admin.post('/admin/availability', hours), { status: 400, says: real ? 'Choose a date from 2000 to 2100' : 'Choose the first date' })
      }
      await expectAnswer(`POST /admin/availability unholiday ${date}`, admin.post('/admin/availability', { intent: 'unholiday', date }), { status: 302 })
      const staffBooking = { name: 'Ravi Kumar', email: 'ravi@example.com', product: 'single_race', date, time: '09:00', origin: 'complimentary' }
      await expectAnswer(`POST /admin/bookings/new ${date}`, admin.post('/admin/bookings/new', staffBooking), { status: 400, says: real ? 'Choose a date from 2000 to 2100' : 'Choose the date of the (first) session' })
      const camp = { name: 'Camp 1', startsOn: date, endsOn: date, venue: 'Pool', earlyBirdPrice: '30,000', regularPrice: '35,000', earlyBirdDeadline: date, registration: 'open' }
      await expectAnswer(`POST /admin/camps/camp1 ${date}`, admin.post('/admin/camps/camp1', { intent: 'update-camp', ...camp }), { status: 400, says: real ? 'Choose a date from 2000 to 2100' : 'Please enter the first day' })
    }
    const thisMonth = new Intl.DateTimeFormat('en-IN', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${labToday().slice(0, 7)}-01T00:00:00Z`))
    for (const month of OUT_OF_RANGE_MONTHS) {
      await expectAnswer(`GET /admin/availability?month=${month}`, admin.get(`/admin/availability?month=${month}`), { status: 200, says: `Opening hours in ${thisMonth}` })
      await expectAnswer(`GET /book-slot?month=${month}`, customer.get(`/book-slot?month=${month}`), { status: 200 })
    }
    await expectAnswer('GET /admin/audit?type=%00', admin.get('/admin/audit?type=%00'), { status: 404 })
    await expectAnswer('GET /admin/audit?type=a%00b&before=5', admin.get('/admin/audit?type=a%00b&before=5'), { status: 404 })
    expect(failures).toEqual([])
  })

  it.each([
    { template: '/admin/availability/:x', who: 'admin' as const },
    { template: '/admin/bookings/:x', who: 'admin' as const },
    { template: '/admin/camps/:x', who: 'admin' as const },
    { template: '/admin/camps/:x/registrations.csv', who: 'admin' as const },
    { template: '/admin/customers/:x', who: 'admin' as const },
    { template: '/bookings/:x/cancel', who: 'customer' as const },
    { template: '/bookings/:x/reschedule', who: 'customer' as const },
    { template: '/receipts/:x', who: 'customer' as const },
    { template: '/credit-notes/:x', who: 'customer' as const },
    { template: '/reports/files/:x', who: 'customer' as const },
  ])('$template: any path segment, read or posted, is a 4xx or a page, never 5xx', async ({ template, who }) => {
    await fc.assert(
      fc.asyncProperty(hostileSegment, fc.boolean(), async (segment, posting) => {
        const path = template.replace(':x', encodeURIComponent(segment))
        const visitor = visitorFor(who)
        const response = posting ? await visitor.post(path, { intent: 'cancel', website_url: '' }) : await visitor.get(path)
        expect(response.status, `${posting ? 'POST' : 'GET'} ${path.slice(0, 300)}`).toBeLessThan(500)
      }),
      { numRuns: RUNS * 2 },
    )
  })
})

describe('the payment webhook and the sandbox gateway', () => {
  it('a forged or malformed notification is refused with 401 JSON', async () => {
    const headerName = fc.constantFrom('Authorization', 'X-Verify', 'X-Sandbox-Signature', 'X-Signature', 'Content-Type', 'X-Forwarded-For')
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyValue, fc.json(), fc.constant('{"event":"checkout.order.completed","payload":{"merchantOrderId":"x","state":"COMPLETED"}}')), fc.array(fc.tuple(headerName, fc.string({ maxLength: 100 })), { maxLength: 3 }), async (body, pairs) => {
        const headers = new Headers()
        for (const [name, value] of pairs) {
          try {
            headers.set(name, value)
          } catch {
            // A value no HTTP client can send is not a request the server can receive.
          }
        }
        const response = await fetch(`${site.url}/api/payments/webhook/sandbox`, { method: 'POST', body, headers })
        // Notifications are at most 64 KB; a larger body is refused before it is read.
        if (Buffer.byteLength(body) > 64 * 1024) return void expect(response.status).toBe(413)
        expect(response.status).toBe(401)
        expect(await response.json()).toHaveProperty('error')
      }),
      { numRuns: RUNS * 3 },
    )
  })

  it('an unknown gateway is 404, an oversized notification 413, neither a 5xx', async () => {
    expect((await fetch(`${site.url}/api/payments/webhook/phonepe`, { method: 'POST', body: '{}' })).status).toBe(404)
    expect((await fetch(`${site.url}/api/payments/webhook/sandbox`, { method: 'POST', body: 'x'.repeat(100 * 1024) })).status).toBe(413)
  })

  it('the sandbox API refuses callers without its key, whatever they send', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/orders', '/refunds', '/orders/x', '/refunds/%zz'), fc.oneof(fc.json(), anyValue), fc.constantFrom('', 'Bearer ', 'Bearer x', 'Basic eA=='), async (path, body, authorization) => {
        const posting = !/\/(orders|refunds)\//.test(path)
        const response = await fetch(`${site.url}/sandbox-gateway/api${path}`, {
          method: posting ? 'POST' : 'GET',
          body: posting ? body : undefined,
          headers: { 'Content-Type': 'application/json', ...(authorization ? { Authorization: authorization } : {}) },
        })
        // A body that is not JSON is refused before the key is looked at; either way, no 5xx.
        expect([400, 401, 413], `${path} ${body.slice(0, 200)}`).toContain(response.status)
      }),
      { numRuns: RUNS * 3 },
    )
  })

  it('the sandbox checkout takes any outcome and any order id without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(anyValue.filter((orderId) => !orderId.includes('\u0000')), anyValue, async (orderId, outcome) => {
        const path = `/sandbox-gateway/checkout/${encodeURIComponent(orderId)}`
        const response = await new Visitor(site.url).post(path, { outcome })
        expect(response.status, path.slice(0, 200)).toBeLessThan(500)
      }),
      { numRuns: RUNS * 2 },
    )
  })

  it('/sandbox-gateway/checkout/%00 (an id that cannot be ours) is not found', async () => {
    const response = await new Visitor(site.url).get('/sandbox-gateway/checkout/%00')
    expect(response.status).toBe(404)
    expect(response.html).toContain('Payment request not found')
  })
})
