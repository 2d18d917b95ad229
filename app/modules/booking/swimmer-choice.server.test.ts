import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { bookings } from '~/db/schema'
import { ConsentNeededError, recordConsent } from '~/modules/swimmers/consent.server'
import { insertSwimmer } from '~/modules/swimmers/swimmers.server'
import { swimmerInput } from '../../../tests/support/accounts'
import { createCustomers, setWindows } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { holdSession, type Customer } from './holds.server'
import { ChooseSwimmerError, NoSwimmerError, swimmerChoices, swimmerToBook } from './swimmer-choice.server'
import { swimmers } from '~/db/schema'

useTestDatabase()

const NOW = new Date('2026-12-01T04:30:00Z')
const addChild = (accountId: number, name: string) => insertSwimmer(db(), accountId, name, swimmerInput({ name }), { isAccountHolder: false, now: NOW })

describe('who a customer books for', () => {
  it("offers the account's swimmers, the one booked for last chosen first", async () => {
    const [parent] = await createCustomers(1)
    const kavya = await addChild(parent!.userId!, 'Kavya Rao')
    expect(await swimmerChoices(parent!.userId!, NOW)).toEqual({ swimmers: [{ id: parent!.swimmerId, name: parent!.name, mayBeBooked: true }, { id: kavya.id, name: 'Kavya Rao', mayBeBooked: false }], preselected: parent!.swimmerId })
    await recordConsent(db(), { swimmerId: kavya.id, guardianName: parent!.name, guardianEmail: parent!.email, emailVerifiedBy: 'account_code', method: 'registration_form', now: NOW })
    await setWindows(['2026-12-02', '2026-12-03', '2026-12-04'].map((date) => ({ date })))
    const forKavya: Customer = { ...parent!, swimmerId: kavya.id, swimmerName: kavya.name }
    await holdSession({ customer: forKavya, productCode: 'biomechanical_package', date: '2026-12-02', start: '09:00', days: 3, now: NOW })
    expect(await swimmerChoices(parent!.userId!, NOW)).toMatchObject({ swimmers: [{ mayBeBooked: true }, { id: kavya.id, mayBeBooked: true }], preselected: kavya.id })
  })

  it("takes the only swimmer when the form names none; refuses none chosen among several, another account's swimmer, and a minor without a parent's consent", async () => {
    const [parent, stranger] = await createCustomers(2)
    expect((await swimmerToBook(parent!.userId!, null, NOW)).id).toBe(parent!.swimmerId)
    expect((await swimmerToBook(parent!.userId!, parent!.swimmerId, NOW)).id).toBe(parent!.swimmerId)
    await expect(swimmerToBook(parent!.userId!, stranger!.swimmerId, NOW)).rejects.toBeInstanceOf(ChooseSwimmerError)
    await expect(swimmerToBook(parent!.userId!, 0, NOW)).rejects.toBeInstanceOf(ChooseSwimmerError)

    const kavya = await addChild(parent!.userId!, 'Kavya Rao')
    await expect(swimmerToBook(parent!.userId!, null, NOW)).rejects.toBeInstanceOf(ChooseSwimmerError)
    await expect(swimmerToBook(parent!.userId!, kavya.id, NOW)).rejects.toBeInstanceOf(ConsentNeededError)
    await recordConsent(db(), { swimmerId: kavya.id, guardianName: parent!.name, guardianEmail: parent!.email, emailVerifiedBy: 'account_code', method: 'registration_form', now: NOW })
    expect((await swimmerToBook(parent!.userId!, kavya.id, NOW)).name).toBe('Kavya Rao')

    await db().delete(swimmers).where(eq(swimmers.accountId, stranger!.userId!))
    await expect(swimmerToBook(stranger!.userId!, null, NOW)).rejects.toBeInstanceOf(NoSwimmerError)
    expect(await db().select().from(bookings)).toEqual([])
  })
})
