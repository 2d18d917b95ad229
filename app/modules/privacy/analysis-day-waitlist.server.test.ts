import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { analysisDayWaitlist, swimmers, users } from '~/db/schema'
import { joinDayWaitlist } from '~/modules/booking/analysis-day-waitlist.server'
import { soldOutDay } from '../../../tests/support/analysis-days'
import { createCustomers } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { eraseAccount, eraseSwimmer } from './erasure.server'
import { accountDataOf } from './export.server'

useTestDatabase()

const NOW = new Date('2030-12-06T02:00:00Z')
let networks = 0
const join = (dayId: number, swimmerName: string, email: string, accountId: number | null = null) =>
  joinDayWaitlist({ dayId, applicant: { swimmerName, email, phone: null }, accountId, ip: `198.51.100.${(networks += 1)}`, now: NOW })
const waiting = async () => (await db().select({ swimmerName: analysisDayWaitlist.swimmerName }).from(analysisDayWaitlist).orderBy(analysisDayWaitlist.id)).map((row) => row.swimmerName)

describe("an analysis day's waitlist places, as personal data", () => {
  it("are the account's when made signed in or under its verified address: exported, and erased with it", async () => {
    const { dayId } = await soldOutDay()
    const [mine, theirs] = await createCustomers(2, 'waitlister')
    await join(dayId, 'Kavya Shetty', mine!.email)
    await join(dayId, 'Kiran Shetty', 'grandma@example.com', mine!.userId)
    await join(dayId, 'Someone Else', theirs!.email)

    const data = await accountDataOf(mine!.userId!)
    expect(data!.analysisDayWaitlist.map((entry) => entry.swimmerName)).toEqual(['Kavya Shetty', 'Kiran Shetty'])
    await eraseAccount(mine!.userId!, { reason: 'Asked to be forgotten.' })
    expect(await waiting()).toEqual(['Someone Else'])
  })

  it('under an address never verified are no account’s: neither exported nor erased by it', async () => {
    const { dayId } = await soldOutDay()
    const [unverified] = await createCustomers(1, 'unproven')
    await db().update(users).set({ isVerified: false }).where(eq(users.id, unverified!.userId!))
    await join(dayId, 'Kavya Shetty', unverified!.email)
    expect((await accountDataOf(unverified!.userId!))!.analysisDayWaitlist).toEqual([])
    await eraseAccount(unverified!.userId!, { reason: 'Asked to be forgotten.' })
    expect(await waiting()).toEqual(['Kavya Shetty'])
  })

  it("go with a swimmer erased, under the account's verified address in the swimmer's name", async () => {
    const { dayId } = await soldOutDay()
    const [parent] = await createCustomers(1, 'parent')
    const [child] = await db().insert(swimmers).values({ accountId: parent!.userId!, isAccountHolder: false, name: 'Kavya Shetty', ageYears: 12, ageGivenOn: '2030-01-01', gender: 'female', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' }).returning()
    await join(dayId, 'Kavya Shetty', parent!.email)
    await join(dayId, 'Kiran Shetty', parent!.email)
    await eraseSwimmer(parent!.userId!, child!.id, { reason: 'Asked to be forgotten.' })
    expect(await waiting()).toEqual(['Kiran Shetty'])
  })
})
