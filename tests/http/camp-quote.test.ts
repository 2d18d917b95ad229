import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { camps, promoCodes, swimmers, users } from '~/db/schema'
import { addFamily, FAMILY } from '../support/family-site'
import { useTestSite } from '../support/site'
import { Visitor } from '../support/visitor'

// The price the camp forms show with JavaScript as the parent chooses: asked of the server, which
// quotes it as the summary will once the seats are held.

const site = useTestSite(
  {},
  {
    async prepare(db) {
      await addFamily(db)
      await db.update(camps).set({ siblingDiscountKind: 'percent', siblingDiscountValue: 10_00 }).where(eq(camps.code, 'camp2'))
      await db.insert(promoCodes).values({ code: 'TENOFF', discountKind: 'percent', discountValue: 10_00, products: ['camp'] })
      const [stranger] = await db.insert(users).values({ name: 'Other Parent', email: 'other.parent@example.com', passwordHash: 'x', isVerified: true }).returning({ id: users.id })
      await db.insert(swimmers).values({ id: STRANGERS_SWIMMER, accountId: stranger!.id, name: 'Other Child', ageYears: 30, ageGivenOn: '2026-01-01', gender: 'male', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle', isAccountHolder: true })
    },
  },
)

async function quote(visitor: Visitor, params: Record<string, string | string[]>) {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) for (const one of [value].flat()) query.append(name, one)
  const answer = await visitor.post('/onboarding/quote', query)
  return { status: answer.status, cacheControl: answer.headers.get('Cache-Control'), body: JSON.parse(answer.html) as { rows: Array<{ term: string; value: string }> | null; total: string | null; promoError: string | null; error: string | null } }
}

/** Another account's swimmer, by a known id. */
const STRANGERS_SWIMMER = 9001

/** The ids of the swimmers the signed-in form offers. */
async function offeredSwimmerIds(parent: Visitor) {
  return [...(await parent.get('/onboarding')).html.matchAll(/<input[^>]*name="swimmers"[^>]*value="(\d+)"/g)].map((match) => match[1]!)
}

describe('the price of a camp order before it is held', () => {
  it('for a guest with a 10% code: the line, the code and the total the gateway will ask, never cached', async () => {
    const answer = await quote(new Visitor(site.url), { camp: 'camp2', batch: 'batch1', name: 'Nila Raman', email: 'raman@example.com', promoCode: 'tenoff' })
    expect(answer.status).toBe(200)
    expect(answer.cacheControl).toBe('no-store')
    expect(answer.body).toEqual({
      rows: [
        { term: 'Camp fee for Nila Raman', value: '₹35,000.00' },
        { term: 'Promo code TENOFF', value: '−₹3,500.00' },
        { term: 'Total', value: '₹31,500.00' },
      ],
      total: '₹31,500',
      promoError: null,
      error: null,
    })
  })

  it('a wrong code is left off with its reason, and the price without it stands', async () => {
    const answer = await quote(new Visitor(site.url), { camp: 'camp2', batch: 'batch1', promoCode: 'NOSUCH' })
    expect(answer.status).toBe(200)
    expect(answer.body.promoError).toBe('This promo code is not valid.')
    expect(answer.body.total).toBe('₹35,000')
  })

  it("a signed-in parent's two swimmers: the sibling price and the total; another account's swimmer is refused", async () => {
    const parent = new Visitor(site.url)
    expect((await parent.post('/login', { email: FAMILY.email, password: FAMILY.password, website_url: '' })).status).toBe(302)
    const ids = await offeredSwimmerIds(parent)
    expect(ids).toHaveLength(2)
    const answer = await quote(parent, { camp: 'camp2', batch: 'batch1', swimmers: ids, promoCode: 'TENOFF' })
    expect(answer.status).toBe(200)
    expect(answer.body.rows).toEqual([
      { term: 'Camp fee for Meera Iyer', value: '₹35,000.00' },
      { term: 'Camp fee for Kavya Iyer', value: '₹35,000.00' },
      { term: 'Sibling price for Kavya Iyer', value: '−₹3,500.00' },
      { term: 'Promo code TENOFF', value: '−₹6,650.00' },
      { term: 'Total', value: '₹59,850.00' },
    ])
    expect(answer.body.total).toBe('₹59,850')

    const refused = await quote(parent, { camp: 'camp2', batch: 'batch1', swimmers: [ids[0]!, String(STRANGERS_SWIMMER)] })
    expect(refused.status).toBe(404)
    expect(refused.body.rows).toBeNull()
    // Swimmers are chosen only when signed in.
    expect((await quote(new Visitor(site.url), { camp: 'camp2', batch: 'batch1', swimmers: ids })).status).toBe(403)
  })

  it('bounds what it is sent', async () => {
    const guest = new Visitor(site.url)
    expect((await quote(guest, { camp: 'camp2' })).status).toBe(400)
    expect((await quote(guest, { camp: 'x'.repeat(41), batch: 'batch1' })).status).toBe(400)
    expect((await quote(guest, { camp: 'camp2', batch: 'batch1', promoCode: 'C'.repeat(65) })).status).toBe(400)
    expect((await quote(guest, { camp: 'camp2', batch: 'batch1', name: 'N'.repeat(101) })).status).toBe(400)
    expect((await quote(guest, { camp: 'camp2', batch: 'batch1', swimmers: Array.from({ length: 21 }, (_, index) => String(index + 1)) })).status).toBe(400)
    const unknown = await quote(guest, { camp: 'nosuch', batch: 'batch1' })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toBe('Please select a camp')
  })
})
