import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, kitPlacements, kits, staffAssignments, users } from '~/db/schema'
import { placeKit } from '~/modules/booking/kits.server'
import { createCustomers, createStaff, setWindows } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import type { VenueInput } from './schemas'
import { assignStaff, removeAssignment, upcomingAssignments } from './staff-assignments.server'
import { closeVenue, createVenue, homeVenue } from './venues.server'

useTestDatabase()

const NOW = new Date('2030-12-01T04:30:00Z')
const SATURDAY = '2030-12-07'

const venue = (name: string, city: string, stateCode: VenueInput['stateCode'], travelMinutes = 0): VenueInput => ({ name, address: `${name}, ${city}`, city, stateCode, mapUrl: null, photoId: null, hostName: null, hostEmail: null, hostPhone: null, travelMinutes })
const period = (fromTime: string, toTime: string, date = SATURDAY) => ({ fromDate: date, fromTime, toDate: date, toTime, note: null })

describe('who works where', () => {
  it('sends a staff member to a venue, with the travel there and back in the time they are away', async () => {
    const actor = await createStaff('Asha Rao')
    const pune = await createVenue(actor, venue('Balewadi Aquatics', 'Pune', '27', 90), NOW)
    const id = await assignStaff(actor, pune, { userId: actor.id, ...period('09:00', '17:00') }, NOW)
    const [row] = await db().select().from(staffAssignments).where(eq(staffAssignments.id, id))
    expect(row).toMatchObject({ startsAt: new Date('2030-12-07T03:30:00Z'), endsAt: new Date('2030-12-07T11:30:00Z'), during: '["2030-12-07 02:00:00+00","2030-12-07 13:00:00+00")' })
    expect(await upcomingAssignments(NOW, pune)).toEqual([expect.objectContaining({ id, name: 'Asha Rao', venueName: 'Balewadi Aquatics' })])
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'staff.assign'))
    expect(entry!.summary).toBe('Sent Asha Rao to Balewadi Aquatics from 9:00 AM IST on 7 December 2030 to 5:00 PM IST on 7 December 2030')
    await removeAssignment(actor, id, async () => {}, NOW)
    expect(await upcomingAssignments(NOW)).toEqual([])
  })

  it('refuses one person in two places at once, travel included, and takes them back to back', async () => {
    const actor = await createStaff()
    const pune = await createVenue(actor, venue('Balewadi Aquatics', 'Pune', '27', 60), NOW)
    const home = (await homeVenue()).id
    await assignStaff(actor, pune, { userId: actor.id, ...period('09:00', '12:00') }, NOW)
    // Away 08:00-13:00: the lab at 12:30 overlaps.
    await expect(assignStaff(actor, home, { userId: actor.id, ...period('12:30', '15:00') }, NOW)).rejects.toMatchObject({
      kind: 'conflict',
      field: 'fromDate',
      message: 'They are at Balewadi Aquatics from 9:00 AM IST on 7 December 2030 to 12:00 PM IST on 7 December 2030 (with the travel, that overlaps). Choose another time or another person.',
    })
    await expect(assignStaff(actor, home, { userId: actor.id, ...period('13:00', '15:00') }, NOW)).resolves.toBeGreaterThan(0)
  })

  it('sends only staff, to open venues, for a time to come', async () => {
    const actor = await createStaff()
    const [customer] = await createCustomers(1)
    const pune = await createVenue(actor, venue('Balewadi Aquatics', 'Pune', '27'), NOW)
    await expect(assignStaff(actor, pune, { userId: customer!.userId!, ...period('09:00', '12:00') }, NOW)).rejects.toMatchObject({ field: 'userId', message: 'Choose a staff member from the list' })
    await db().update(users).set({ disabledAt: NOW }).where(eq(users.id, actor.id))
    await expect(assignStaff(actor, pune, { userId: actor.id, ...period('09:00', '12:00') }, NOW)).rejects.toMatchObject({ field: 'userId' })
    await db().update(users).set({ disabledAt: null }).where(eq(users.id, actor.id))
    await expect(assignStaff(actor, pune, { userId: actor.id, ...period('09:00', '10:00', '2030-11-30') }, NOW)).rejects.toMatchObject({ field: 'toDate' })
    await closeVenue(actor, pune, NOW)
    await expect(assignStaff(actor, pune, { userId: actor.id, ...period('09:00', '12:00') }, NOW)).rejects.toMatchObject({ field: 'venueId' })
    expect(await db().select().from(staffAssignments)).toEqual([])
  })
})

describe('at once', () => {
  // On PostgreSQL these run side by side on separate connections: the exclusion constraint lets
  // exactly one of them commit, and the others are told where the kit or the person is.
  it('places one kit once when several staff place it at overlapping times', async () => {
    await setWindows([])
    const actor = await createStaff()
    const pune = await createVenue(actor, venue('Balewadi Aquatics', 'Pune', '27', 60), NOW)
    const chennai = await createVenue(actor, venue('Velachery Aquatic Complex', 'Chennai', '33', 60), NOW)
    const [kit] = await db().select({ id: kits.id }).from(kits)
    const attempts = await Promise.allSettled([
      placeKit(actor, { kitId: kit!.id, venueId: pune, ...period('09:00', '12:00') }, NOW),
      placeKit(actor, { kitId: kit!.id, venueId: chennai, ...period('10:00', '13:00') }, NOW),
      placeKit(actor, { kitId: kit!.id, venueId: pune, ...period('11:00', '14:00') }, NOW),
      placeKit(actor, { kitId: kit!.id, venueId: chennai, ...period('08:00', '10:00') }, NOW),
    ])
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1)
    for (const attempt of attempts.filter((candidate) => candidate.status === 'rejected')) {
      expect((attempt as PromiseRejectedResult).reason).toMatchObject({ kind: 'conflict', field: 'fromDate', message: expect.stringMatching(/^Underwater rig 1 is away at (Balewadi Aquatics|Velachery Aquatic Complex) from /) })
    }
    expect(await db().select().from(kitPlacements)).toHaveLength(1)
  })

  it('sends one person once when several staff send them at overlapping times', async () => {
    const actor = await createStaff()
    const pune = await createVenue(actor, venue('Balewadi Aquatics', 'Pune', '27', 60), NOW)
    const home = (await homeVenue()).id
    const attempts = await Promise.allSettled([
      assignStaff(actor, pune, { userId: actor.id, ...period('09:00', '12:00') }, NOW),
      assignStaff(actor, home, { userId: actor.id, ...period('10:00', '13:00') }, NOW),
      assignStaff(actor, pune, { userId: actor.id, ...period('11:00', '14:00') }, NOW),
    ])
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1)
    expect(attempts.filter((attempt) => attempt.status === 'rejected').map((attempt) => (attempt as PromiseRejectedResult).reason.kind)).toEqual(['conflict', 'conflict'])
    expect(await db().select().from(staffAssignments)).toHaveLength(1)
  })
})
