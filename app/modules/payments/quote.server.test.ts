import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { camps, payments, promoCodes, swimmers } from '~/db/schema'
import { labInstant } from '~/lib/lab-time'
import { holdFamilySeats } from '~/modules/camps/groups.server'
import { holdCampSeat } from '~/modules/camps/registrations.server'
import { recordConsent } from '~/modules/swimmers/consent.server'
import { createCustomers } from '../../../tests/support/booking'
import { visitor } from '../../../tests/support/holders'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { confirmQuote, quoteDraft, quoteOrder, storedQuote } from './checkout.server'
import { quoteRows } from './quote'

// A camp order's quote: priced once when its seats are held, shown to the parent, and the total the
// gateway asks only when the parent confirms the total they saw.

useTestDatabase()
const sandbox = useSandboxPayments()

// Camps of August 2030: the early-bird price (₹35,000) until the end of 15 July 2030 in Bangalore, ₹40,000 after.
const JUNE = new Date('2030-06-01T06:00:00Z')
beforeEach(async () => {
  await sandbox.ready()
  await db().update(camps).set({ startsOn: '2030-08-08', endsOn: '2030-08-16', earlyBirdEndsAt: labInstant('2030-07-15', '23:59:59'), siblingDiscountKind: 'percent', siblingDiscountValue: 10_00 }).where(eq(camps.code, 'camp1'))
})

let next = 0
let networks = 0
const network = () => `198.51.100.${++networks}`
const camp = (id: number) => ({ kind: 'camp', id }) as const
const statusUrl = (orderId: string) => `${sandbox.url}/payment-status?orderId=${orderId}`

async function guestHold(now = JUNE) {
  next += 1
  const applicant = { swimmerName: `Guest Child ${next}`, email: `guest${next}@example.com`, phone: '9845012345', guardianDeclaration: true as const }
  return holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant, holder: visitor({ network: network(), email: applicant.email }), now })
}

async function twoSiblings() {
  const { parent, ids } = await parentOfTwo()
  return holdFamilySeats({ accountId: parent.userId!, swimmerIds: ids, campCode: 'camp1', batchCode: 'batch1', contact: { email: parent.email, phone: '9845012345' }, holder: visitor({ userId: parent.userId, email: parent.email }) })
}

async function parentOfTwo() {
  next += 1
  const [parent] = await createCustomers(1, `quote-parent${next}-`)
  const ids: number[] = []
  for (const name of [`Asha ${next}`, `Ravi ${next}`]) {
    const [child] = await db()
      .insert(swimmers)
      .values({ accountId: parent!.userId!, name, ageYears: 10, ageGivenOn: '2026-01-01', gender: 'female', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' })
      .returning()
    await recordConsent(db(), { swimmerId: child!.id, guardianName: parent!.name, guardianEmail: parent!.email, emailVerifiedBy: 'account_code', method: 'registration_form', now: new Date() })
    ids.push(child!.id)
  }
  return { parent: parent!, ids }
}

async function gatewayAmount(orderUrl: string) {
  const [payment] = await db().select({ amountPaise: payments.amountPaise }).from(payments).where(eq(payments.checkoutUrl, orderUrl))
  return payment!.amountPaise
}

describe('the quote of a camp order', () => {
  it('one child with a 10% code: a line of ₹35,000, the code −₹3,500, total ₹31,500, and the gateway asks ₹31,500', async () => {
    await db().insert(promoCodes).values({ code: 'TENOFF', discountKind: 'percent', discountValue: 10_00 })
    const held = await guestHold(new Date())
    const { quote, refusal } = await quoteOrder({ payable: camp(held.id), code: 'tenoff', network: network() })
    expect(refusal).toBeNull()
    expect(quote.totalPaise).toBe(31_500_00)
    expect(quoteRows(quote)).toEqual([
      { term: `Camp fee for Guest Child ${next}`, value: '₹35,000.00' },
      { term: 'Promo code TENOFF', value: '−₹3,500.00' },
      { term: 'Total', value: '₹31,500.00' },
    ])
    expect(await storedQuote(camp(held.id))).toEqual(quote)

    const paid = await confirmQuote({ payable: camp(held.id), quotedTotalPaise: 31_500_00, description: 'Camp Registration', statusUrl })
    expect('redirectUrl' in paid && (await gatewayAmount(paid.redirectUrl))).toBe(31_500_00)
  })

  it('two siblings with a code: the sibling price and the code are lines of their own, and they add up to what the gateway asks', async () => {
    await db().insert(promoCodes).values({ code: 'FIVEOFF', discountKind: 'percent', discountValue: 5_00 })
    const held = await twoSiblings()
    const { quote } = await quoteOrder({ payable: camp(held.leadId), code: 'FIVEOFF', network: network() })
    const rows = quoteRows(quote)
    expect(rows.map((row) => row.term)).toEqual([`Camp fee for Asha ${next}`, `Camp fee for Ravi ${next}`, `Sibling price for Ravi ${next}`, 'Promo code FIVEOFF', 'Total'])
    expect(rows.map((row) => row.value)).toEqual(['₹35,000.00', '₹35,000.00', '−₹3,500.00', '−₹3,325.00', '₹63,175.00'])
    const lines = quote.lines.reduce((sum, line) => sum + line.feePaise - line.siblingDiscountPaise - line.promoDiscountPaise, 0)
    expect(lines).toBe(quote.totalPaise)

    const paid = await confirmQuote({ payable: camp(held.leadId), quotedTotalPaise: quote.totalPaise, description: 'Camp Registration', statusUrl })
    expect('redirectUrl' in paid && (await gatewayAmount(paid.redirectUrl))).toBe(63_175_00)
  })

  it('a price changed between the summary and the confirm gives the new summary, and no payment', async () => {
    // Held at the early-bird price just before its deadline; confirmed after it.
    await db().update(camps).set({ earlyBirdEndsAt: new Date(Date.now() + 60_000) }).where(eq(camps.code, 'camp1'))
    const held = await guestHold(new Date())
    expect((await storedQuote(camp(held.id))).totalPaise).toBe(35_000_00)
    const afterDeadline = new Date(Date.now() + 120_000)
    const changed = await confirmQuote({ payable: camp(held.id), quotedTotalPaise: 35_000_00, description: 'Camp Registration', statusUrl, now: afterDeadline })
    expect(changed).toMatchObject({ changed: { totalPaise: 40_000_00 }, refusal: null })
    expect(await db().select().from(payments).where(eq(payments.campRegistrationId, held.id))).toHaveLength(0)
    expect((await storedQuote(camp(held.id))).totalPaise).toBe(40_000_00)
  })

  it('a code used up meanwhile is taken off with its reason: the new summary, no payment', async () => {
    const [code] = await db().insert(promoCodes).values({ code: 'LASTONE', discountKind: 'percent', discountValue: 10_00 }).returning()
    const held = await guestHold(new Date())
    await quoteOrder({ payable: camp(held.id), code: 'LASTONE', network: network() })
    await db().update(promoCodes).set({ active: false }).where(eq(promoCodes.id, code!.id))
    const changed = await confirmQuote({ payable: camp(held.id), quotedTotalPaise: 31_500_00, description: 'Camp Registration', statusUrl })
    expect(changed).toMatchObject({ changed: { totalPaise: 35_000_00, promo: null }, refusal: { message: 'This promo code is not valid.' } })
    expect(await db().select().from(payments).where(eq(payments.campRegistrationId, held.id))).toHaveLength(0)
  })
})

describe('the quote of a camp order not held yet, as the form shows it', () => {
  it('one child with a 10% code: the same rows and total as the quote stored once the seat is held', async () => {
    await db().insert(promoCodes).values({ code: 'PREVIEWTEN', discountKind: 'percent', discountValue: 10_00 })
    const shown = await quoteDraft({ kind: 'camp', draft: { campCode: 'camp1', batchCode: 'batch1', swimmers: { name: `Guest Child ${next + 1}` } }, code: 'previewten', customer: { accountId: null, email: `guest${next + 1}@example.com` }, network: network() })
    expect(shown.refusal).toBeNull()
    const held = await guestHold(new Date())
    const { quote: stored } = await quoteOrder({ payable: camp(held.id), code: 'previewten', network: network() })
    expect(shown.quote.totalPaise).toBe(31_500_00)
    expect(quoteRows(shown.quote)).toEqual(quoteRows(stored))
  })

  it('two siblings with a code: the sibling price and the code as the stored quote has them', async () => {
    await db().insert(promoCodes).values({ code: 'PREVIEWFAMILY', discountKind: 'percent', discountValue: 5_00 })
    const { parent, ids } = await parentOfTwo()
    const customer = { accountId: parent.userId!, email: parent.email }
    const shown = await quoteDraft({ kind: 'camp', draft: { campCode: 'camp1', batchCode: 'batch1', swimmers: { accountId: parent.userId!, ids: [...ids].reverse() } }, code: 'PREVIEWFAMILY', customer, network: network() })
    const held = await holdFamilySeats({ accountId: parent.userId!, swimmerIds: ids, campCode: 'camp1', batchCode: 'batch1', contact: { email: parent.email, phone: '9845012345' }, holder: visitor({ userId: parent.userId, email: parent.email }) })
    const { quote: stored } = await quoteOrder({ payable: camp(held.leadId), code: 'PREVIEWFAMILY', network: network() })
    expect(quoteRows(shown.quote).map((row) => row.term)).toContain(`Sibling price for Ravi ${next}`)
    expect(quoteRows(shown.quote)).toEqual(quoteRows(stored))
    expect(shown.quote.totalPaise).toBe(stored.totalPaise)
  })

  it('a wrong code is left off with its reason, the rest of the quote stands; another account\'s swimmer is refused', async () => {
    const shown = await quoteDraft({ kind: 'camp', draft: { campCode: 'camp1', batchCode: 'batch1', swimmers: { name: '' } }, code: 'NOSUCHCODE', customer: { accountId: null, email: 'someone@example.com' }, network: network() })
    expect(shown.refusal?.field).toBe('promoCode')
    expect(shown.quote.promo).toBeNull()
    expect(shown.quote.lines).toHaveLength(1)
    const { parent } = await parentOfTwo()
    const { ids: others } = await parentOfTwo()
    await expect(quoteDraft({ kind: 'camp', draft: { campCode: 'camp1', batchCode: 'batch1', swimmers: { accountId: parent.userId!, ids: others } }, code: null, customer: { accountId: parent.userId!, email: parent.email }, network: null })).rejects.toThrow(/swimmer/i)
  })
})
