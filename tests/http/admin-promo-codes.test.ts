import { describe, expect, it } from 'vitest'
import { bookings, promoCodes, promoCodeUses } from '~/db/schema'
import { parseCsv } from '~/lib/csv'
import { labInstant } from '~/lib/lab-time'
import { decodeHtml, fieldState, text, Visitor } from '../support/visitor'
import { useTestSite } from '../support/site'

// The promo codes section of the admin console as staff use it in a browser without JavaScript:
// who may open it, codes created (mistakes shown next to their fields), edited, switched off, and
// followed through their uses and the discount they have given, on the page and in the CSV.

const ids = { school: 0 }

const site = useTestSite(
  {},
  {
    // A code orders have used: two paid for, one waiting for payment, one given back.
    async prepare(db) {
      const [school] = await db
        .insert(promoCodes)
        .values({ code: 'SCHOOL10', description: 'Schools in Jayanagar', discountKind: 'percent', discountValue: 10_00, products: ['three_day'], validFrom: labInstant('2026-11-01'), validUntil: labInstant('2027-01-01'), maxUses: 50, maxUsesPerCustomer: 2, createdAt: labInstant('2026-10-01') })
        .returning({ id: promoCodes.id })
      ids.school = school!.id
      const orders = await db
        .insert(bookings)
        .values(
          [1, 2, 3, 4].map((n) => ({ reference: `SWP-800000000${n}`, productCode: 'biomechanical_package', swimmerName: 'Asha', customerName: 'Asha', customerEmail: `parent${n}@example.com`, startTime: '09:00', endTime: '10:00', amountPaise: 27_000_00, promoDiscountPaise: 3_000_00, status: 'confirmed' as const })),
        )
        .returning({ id: bookings.id })
      await db.insert(promoCodeUses).values([
        { promoCodeId: school!.id, bookingId: orders[0]!.id, customerKey: 'email:parent1@example.com', discountPaise: 3_000_00, state: 'used' },
        { promoCodeId: school!.id, bookingId: orders[1]!.id, customerKey: 'email:parent2@example.com', discountPaise: 1_500_50, state: 'used' },
        { promoCodeId: school!.id, bookingId: orders[2]!.id, customerKey: 'email:parent3@example.com', discountPaise: 3_000_00, state: 'held' },
        { promoCodeId: school!.id, bookingId: orders[3]!.id, customerKey: 'email:parent4@example.com', discountPaise: 3_000_00, state: 'released' },
      ])
    },
  },
)

const staff = site.sharedStaff

/** A filled-in promo code form, as a browser posts it (a list of products as repeated fields). */
function promoForm(values: Record<string, string>, products: string[] = []) {
  const form = new URLSearchParams({ code: '', description: '', discountKind: 'percent', discountValue: '', validFrom: '', validUntil: '', maxUses: '', maxUsesPerCustomer: '', ...values })
  for (const product of products) form.append('products', product)
  return form
}

/** The text of the list's row of a code. */
function rowOf(html: string, code: string) {
  const row = html.split('<tr').find((part) => part.includes(`>${code}</a>`))
  if (!row) throw new Error(`no row for ${code}`)
  return text(`<tr${row.split('</tr>')[0]}`).trim()
}

/** The value of the input named `name`. */
function inputValue(html: string, name: string) {
  const tag = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0]
  if (!tag) throw new Error(`no input ${name}`)
  return decodeHtml(/value="([^"]*)"/.exec(tag)?.[1] ?? '')
}

async function create(values: Record<string, string>, products: string[] = []) {
  const created = await (await staff()).post('/admin/promo-codes', promoForm(values, products))
  expect(created.status).toBe(302)
  expect(created.location).toMatch(/^\/admin\/promo-codes\/\d+$/)
  return created.location!
}

describe('who may open the promo codes', () => {
  it('guests are sent to sign in; customers are refused with 403 and change nothing', async () => {
    const pages = ['/admin/promo-codes', `/admin/promo-codes/${ids.school}`, '/admin/promo-codes.csv']
    const guest = new Visitor(site.url)
    for (const path of pages) expect((await guest.get(path)).location).toBe(`/login?${new URLSearchParams({ redirectTo: path })}`)
    const customer = await site.customer('Parent Customer')
    for (const path of pages) {
      const response = await customer.get(path)
      expect(response.status).toBe(403)
      expect(response.html).not.toContain('SCHOOL10')
    }
    expect((await customer.post('/admin/promo-codes', promoForm({ code: 'FREEFORALL', discountValue: '100' }))).status).toBe(403)
    expect((await customer.post(`/admin/promo-codes/${ids.school}`, { intent: 'deactivate' })).status).toBe(403)
    expect((await customer.post(`/admin/promo-codes/${ids.school}`, promoForm({ intent: 'update', code: 'SCHOOL10', discountValue: '100' }))).status).toBe(403)
    const list = await (await staff()).get('/admin/promo-codes')
    expect(list.html).not.toContain('FREEFORALL')
    expect(rowOf(list.html, 'SCHOOL10')).toContain('10% 3-day analysis sessions')
    expect(rowOf(list.html, 'SCHOOL10')).toMatch(/Active$/)
  })
})

describe('the list', () => {
  it('shows each code’s discount, products, days, uses paid and held, limit per customer and the discount given', async () => {
    const list = await (await staff()).get('/admin/promo-codes')
    expect(list.status).toBe(200)
    expect(list.html).toMatch(/<a[^>]*href="\/admin\/promo-codes"[^>]*>Promo codes<\/a>/)
    // The released use counts neither as used nor held, and gave nothing.
    expect(rowOf(list.html, 'SCHOOL10')).toBe('SCHOOL10 Schools in Jayanagar 10% 3-day analysis sessions 1 November 2026 to 31 December 2026 2 / 50 1 held now 2 ₹4,500.50 Active')
    expect(list.html).toContain(`href="/admin/promo-codes/${ids.school}"`)
    expect(list.html).toContain('href="/admin/promo-codes.csv"')
  })
})

describe('creating a code', () => {
  it('shows each mistake next to its field with status 400, keeping what was typed', async () => {
    const invalid = await (await staff()).post('/admin/promo-codes', promoForm({ code: 'ab', discountKind: 'percent', discountValue: '150', validFrom: '2026-12-10', validUntil: '2026-12-01', maxUses: '0', maxUsesPerCustomer: 'two' }))
    expect(invalid.status).toBe(400)
    expect(fieldState(invalid.html, 'code')).toEqual({ invalid: true, message: 'Use 3 to 32 letters, digits, - or _, such as DIWALI25' })
    expect(fieldState(invalid.html, 'discountValue')).toEqual({ invalid: true, message: 'Enter a percentage from 0.01 to 100, such as 10 or 12.5' })
    expect(fieldState(invalid.html, 'validUntil')).toEqual({ invalid: true, message: 'The last day cannot be before the first day' })
    expect(fieldState(invalid.html, 'maxUses')).toEqual({ invalid: true, message: 'Enter the number of uses as a whole number of at least 1, or leave it empty for no limit' })
    expect(fieldState(invalid.html, 'maxUsesPerCustomer')).toEqual({ invalid: true, message: 'Enter the number of uses per customer as a whole number of at least 1, or leave it empty for no limit' })
    expect(inputValue(invalid.html, 'validFrom')).toBe('2026-12-10')

    const amount = await (await staff()).post('/admin/promo-codes', promoForm({ code: 'ZERO', discountKind: 'amount', discountValue: '0' }))
    expect(amount.status).toBe(400)
    expect(fieldState(amount.html, 'discountValue')).toEqual({ invalid: true, message: 'Enter an amount in rupees of at least ₹0.01, such as 500' })
    const nul = await (await staff()).post('/admin/promo-codes', promoForm({ code: 'A'.repeat(500), discountValue: '10' }))
    expect(nul.status).toBe(400)
    expect(fieldState(nul.html, 'code').message).toBe('Use 3 to 32 letters, digits, - or _, such as DIWALI25')
  })

  it('refuses a code already in use, in any letter case', async () => {
    const taken = await (await staff()).post('/admin/promo-codes', promoForm({ code: 'school10', discountValue: '5' }))
    expect(taken.status).toBe(409)
    expect(fieldState(taken.html, 'code')).toEqual({ invalid: true, message: 'Another promo code is already SCHOOL10. Please choose another.' })
  })

  it('creates a code in upper case, lists it first, then edits, renames while unused, and switches it off and on, every change audited', async () => {
    const page = await create({ code: 'diwali25', description: 'Diwali offer', discountKind: 'percent', discountValue: '12.5', validFrom: '2026-12-01', validUntil: '2026-12-31', maxUses: '100', maxUsesPerCustomer: '1' }, ['three_day', 'camp'])
    const admin = await staff()
    const created = await admin.get(page)
    expect(text(created.html)).toContain('Promo code created')
    expect(inputValue(created.html, 'code')).toBe('DIWALI25')
    expect(inputValue(created.html, 'discountValue')).toBe('12.5')
    expect(inputValue(created.html, 'validUntil')).toBe('2026-12-31')
    const ticked = (product: string) => /checked=""/.test(new RegExp(`<input[^>]*value="${product}"[^>]*>`).exec(created.html)![0])
    expect(['three_day', 'single', 'camp'].filter(ticked)).toEqual(['three_day', 'camp'])
    let list = await admin.get('/admin/promo-codes')
    expect(rowOf(list.html, 'DIWALI25')).toBe('DIWALI25 Diwali offer 12.5% 3-day analysis sessions and camps 1 December 2026 to 31 December 2026 0 / 100 0 held now 1 ₹0.00 Active')
    // Newest first.
    expect(list.html.indexOf('>DIWALI25<')).toBeLessThan(list.html.indexOf('>SCHOOL10<'))

    const edited = await admin.post(page, promoForm({ intent: 'update', code: 'diwali26', description: 'Diwali offer', discountKind: 'amount', discountValue: '500', validFrom: '', validUntil: '2026-12-31', maxUses: '', maxUsesPerCustomer: '2' }))
    expect(edited.status).toBe(302)
    list = await admin.get('/admin/promo-codes')
    expect(list.html).not.toContain('>DIWALI25<')
    expect(rowOf(list.html, 'DIWALI26')).toBe('DIWALI26 Diwali offer ₹500.00 Everything Until 31 December 2026 0 / unlimited 0 held now 2 ₹0.00 Active')

    expect((await admin.post(page, { intent: 'deactivate' })).location).toBe(page)
    expect(text((await admin.get(page)).html)).toContain('Promo code deactivated')
    expect(rowOf((await admin.get('/admin/promo-codes')).html, 'DIWALI26')).toMatch(/ Inactive$/)
    expect((await admin.post(page, { intent: 'activate' })).location).toBe(page)
    expect(rowOf((await admin.get('/admin/promo-codes')).html, 'DIWALI26')).toMatch(/ Active$/)

    const audit = text((await admin.get('/admin/audit')).html)
    expect(audit).toContain('Created promo code DIWALI25: 12.5% off 3-day analysis sessions and camps')
    expect(audit).toContain('Changed promo code DIWALI25: code DIWALI25 → DIWALI26; discount 12.5% → ₹500.00; for 3-day analysis sessions and camps → everything; valid from 1 December 2026 → any time; uses 100 → unlimited; uses per customer 1 → 2')
    expect(audit).toContain('Deactivated promo code DIWALI26')
    expect(audit).toContain('Activated promo code DIWALI26')
  })

  it('keeps the text of a code orders have used, saying so next to the field; its other details still change', async () => {
    const admin = await staff()
    const page = `/admin/promo-codes/${ids.school}`
    const shown = await admin.get(page)
    expect(shown.html).toMatch(/<input[^>]*name="code"[^>]*readOnly=""|<input[^>]*readOnly=""[^>]*name="code"/i)
    expect(text(shown.html)).toContain('Orders have already used this code, so its text can no longer be changed')
    const renamed = await admin.post(page, promoForm({ intent: 'update', code: 'SCHOOL11', discountValue: '10', validFrom: '2026-11-01', validUntil: '2026-12-31', maxUses: '50', maxUsesPerCustomer: '2' }, ['three_day']))
    expect(renamed.status).toBe(409)
    expect(fieldState(renamed.html, 'code')).toEqual({ invalid: true, message: 'Orders have already used SCHOOL10, so its text can no longer be changed. Create a new code instead.' })
    const raised = await admin.post(page, promoForm({ intent: 'update', code: 'SCHOOL10', description: 'Schools in Jayanagar', discountValue: '10', validFrom: '2026-11-01', validUntil: '2026-12-31', maxUses: '60', maxUsesPerCustomer: '2' }, ['three_day']))
    expect(raised.status).toBe(302)
    expect(rowOf((await admin.get('/admin/promo-codes')).html, 'SCHOOL10')).toContain('2 / 60 1 held now')
  })

  it('answers a code that does not exist with 404', async () => {
    const admin = await staff()
    for (const path of ['/admin/promo-codes/999999', '/admin/promo-codes/abc', '/admin/promo-codes/99999999999']) expect((await admin.get(path)).status).toBe(404)
    expect((await admin.post('/admin/promo-codes/999999', { intent: 'deactivate' })).status).toBe(404)
  })
})

describe('the CSV', () => {
  it('lists every code with its uses and discount given, newest first, with formulas made harmless', async () => {
    await create({ code: 'FORMULA', description: '=HYPERLINK("http://evil.example","Click")', discountKind: 'amount', discountValue: '1,000' }, ['single'])
    const csv = await (await staff()).get('/admin/promo-codes.csv')
    expect(csv.status).toBe(200)
    expect(csv.headers.get('Content-Type')).toBe('text/csv; charset=utf-8')
    expect(csv.headers.get('Content-Disposition')).toMatch(/^attachment; filename="promo-codes-\d{4}-\d{2}-\d{2}\.csv"$/)
    const [header, ...rows] = parseCsv(csv.html)!
    expect(header).toEqual(['Code', 'Description', 'Discount', 'For', 'Valid from', 'Valid until', 'Used', 'Held now', 'Uses in all', 'Uses per customer', 'Discount given (₹)', 'Status'])
    expect(rows[0]).toEqual(['FORMULA', `'=HYPERLINK("http://evil.example","Click")`, '₹1,000.00', 'Single sessions', '', '', '0', '0', 'Unlimited', 'Unlimited', '0.00', 'Active'])
    expect(rows.find((row) => row[0] === 'SCHOOL10')).toEqual(['SCHOOL10', 'Schools in Jayanagar', '10%', '3-day analysis sessions', '1 November 2026', '31 December 2026', '2', '1', '60', '2', '4500.50', 'Active'])
  })
})
