import { and, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { isLinkKey, WAITLIST_CONFIRMATION_LINK } from '~/lib/private-links.server'
import { campBatches, campRegistrations, camps, campWaitlist, outboxMessages } from '~/db/schema'
import { addMinutes, labInstant } from '~/lib/lab-time'
import { visitor } from '../../../tests/support/holders'
import { useTestDatabase } from '../../../tests/support/test-database'
import { batchLooksFull, campChoices } from './camps.server'
import { BatchFullError, expireStaleCampHolds, holdCampSeat } from './registrations.server'
import { AlreadyWaitingError, confirmWaitlistPlace, expireUnconfirmedWaitlist, joinWaitlist, offerFreedSeats, SeatsFreeError, WaitlistNetworkLimitError, waitlistPlace } from './waitlist.server'

useTestDatabase()

// Camps seeded for August 2030, so registration is open in June.
const YEAR = 2030
const JUNE = new Date(`${YEAR}-06-01T06:00:00Z`)
const minutesAfter = (at: Date, minutes: number) => addMinutes(at, minutes)
const hoursAfter = (at: Date, hours: number) => minutesAfter(at, hours * 60)

beforeEach(async () => {
  await db().update(camps).set({ startsOn: `${YEAR}-08-08`, endsOn: `${YEAR}-08-16`, earlyBirdEndsAt: labInstant(`${YEAR}-07-15`, '23:59:59') }).where(eq(camps.code, 'camp1'))
  await db().update(camps).set({ startsOn: `${YEAR}-08-18`, endsOn: `${YEAR}-08-26`, earlyBirdEndsAt: labInstant(`${YEAR}-07-15`, '23:59:59') }).where(eq(camps.code, 'camp2'))
})

let nextParent = 1
const parent = (swimmerName = `Swimmer ${nextParent}`) => ({ swimmerName, email: `parent${nextParent++}@example.com`, phone: '9845012345' })
const nextIp = () => `198.51.100.${nextParent % 250}`
const hold = (applicant = parent(), { camp = 'camp1', batch = 'batch1', now = JUNE } = {}) => holdCampSeat({ campCode: camp, batchCode: batch, applicant, holder: visitor({ network: nextIp(), email: applicant.email }), now })
const join = (applicant = parent(), { camp = 'camp1', batch = 'batch1', now = JUNE, ip = nextIp() } = {}) => joinWaitlist({ campCode: camp, batchCode: batch, applicant, ip, now })

async function setCapacity(capacity: number, camp = 'camp1', batch = 'batch1') {
  const [target] = await db().select({ id: campBatches.id }).from(campBatches).innerJoin(camps, eq(camps.id, campBatches.campId)).where(and(eq(camps.code, camp), eq(campBatches.code, batch)))
  await db().update(campBatches).set({ capacity }).where(eq(campBatches.id, target!.id))
}

/** Fills a batch of one seat with an unpaid hold; returns the hold. */
async function fullBatch(camp = 'camp1', batch = 'batch1') {
  await setCapacity(1, camp, batch)
  return hold(parent(), { camp, batch })
}

const entry = async (id: number) => (await db().select().from(campWaitlist).where(eq(campWaitlist.id, id)))[0]!
/** Expects the swimmer to get a place on the waitlist, waiting for the parent to confirm it. */
const expectWaiting = async (joined: Promise<{ entryId: number }>) => expect((await entry((await joined).entryId)).status).toBe('waiting')

describe('joining the waitlist', () => {
  it('is refused while the batch has a seat a newcomer can take, with a message to register instead', async () => {
    await setCapacity(2)
    await hold()
    await expect(join()).rejects.toThrow(new SeatsFreeError('Camp 1', 'Batch 1'))
    expect(new SeatsFreeError('Camp 1', 'Batch 1').message).toBe('Batch 1 of Camp 1 still has free seats, so there is no need to wait. Please register for it instead.')
    expect(await db().select().from(campWaitlist)).toEqual([])
    expect(await db().select().from(outboxMessages).where(eq(outboxMessages.subject, 'Please confirm your waitlist place: Camp 1, Batch 1'))).toEqual([])
    // Full: now it is accepted, and the e-mail that says so is true.
    await hold()
    const joined = await join(parent('Tara Nair'))
    expect(joined).toMatchObject({ campName: 'Camp 1', batchName: 'Batch 1', confirmBy: hoursAfter(JUNE, 24) })
    expect(await entry(joined.entryId)).toMatchObject({ status: 'waiting', confirmedAt: null })
  })

  it('is accepted when the only free seat is owed to someone already in the queue', async () => {
    const holder = await fullBatch()
    const first = await join()
    await confirmWaitlistPlace(first.entryId, JUNE)
    // The holder's seat frees up before the worker has offered it: newcomers can neither take it nor be told to.
    await db().update(campRegistrations).set({ status: 'expired' }).where(eq(campRegistrations.id, holder.id))
    await expect(hold()).rejects.toThrow(BatchFullError)
    await expect(join()).resolves.toMatchObject({ batchName: 'Batch 1' })
  })

  it('e-mails a link (keyed to the entry) to confirm the place; nothing is confirmed until the parent presses the button', async () => {
    await fullBatch()
    const asha = parent('Asha Rao')
    const { entryId } = await join(asha)
    const [mail] = await db().select().from(outboxMessages).where(eq(outboxMessages.to, asha.email))
    expect(mail!.subject).toBe('Please confirm your waitlist place: Camp 1, Batch 1')
    expect(mail!.text).toContain('Batch 1 of Camp 1 is full, and you asked us to put Asha Rao on its waitlist.')
    const link = new URL(/(http\S+\/onboarding\/waitlist\?\S+)/.exec(mail!.text)![1]!)
    expect(link.searchParams.get('entry')).toBe(String(entryId))
    expect(await isLinkKey(WAITLIST_CONFIRMATION_LINK, entryId, link.searchParams.get('key'))).toBe(true)
    expect(await isLinkKey(WAITLIST_CONFIRMATION_LINK, entryId + 1, link.searchParams.get('key'))).toBe(false)
    expect(await waitlistPlace(entryId, JUNE)).toMatchObject({ state: 'unconfirmed', swimmerName: 'Asha Rao', confirmBy: hoursAfter(JUNE, 24) })
    expect(await confirmWaitlistPlace(entryId, minutesAfter(JUNE, 5))).toMatchObject({ state: 'queued', position: 1 })
    expect((await entry(entryId)).confirmedAt).toEqual(minutesAfter(JUNE, 5))
    // Pressing it again changes nothing.
    await confirmWaitlistPlace(entryId, minutesAfter(JUNE, 9))
    expect((await entry(entryId)).confirmedAt).toEqual(minutesAfter(JUNE, 5))
  })
})

describe('an unconfirmed place', () => {
  it('neither keeps a freed seat from a newcomer nor is offered one; once confirmed it does both', async () => {
    await fullBatch()
    const { entryId } = await join(parent('Fake Entry'))
    expect(await batchLooksFull('camp1', 'batch1', JUNE)).not.toBeNull()

    // The holder never pays: with only an unconfirmed entry waiting, the seat is free for anyone.
    const later = minutesAfter(JUNE, 21)
    expect(await expireStaleCampHolds(later)).toBe(1)
    expect(await offerFreedSeats(later)).toBe(0)
    expect((await entry(entryId)).status).toBe('waiting')
    expect(await batchLooksFull('camp1', 'batch1', later)).toBeNull()
    expect((await campChoices(later))[0]!.batches[0]!.seatsLeft).toBe(1)
    const newcomer = await hold(parent(), { now: later })

    // The newcomer does not pay either; this time the place is confirmed, so the seat is owed to it.
    const evenLater = minutesAfter(later, 21)
    expect(await expireStaleCampHolds(evenLater)).toBe(1)
    await confirmWaitlistPlace(entryId, evenLater)
    expect((await campChoices(evenLater))[0]!.batches[0]!.seatsLeft).toBe(0)
    await expect(hold(parent(), { now: evenLater })).rejects.toThrow(BatchFullError)
    expect(await offerFreedSeats(evenLater)).toBe(1)
    const offered = await entry(entryId)
    expect(offered.status).toBe('offered')
    expect((await db().select().from(campRegistrations).where(eq(campRegistrations.id, offered.registrationId!)))[0]).toMatchObject({ status: 'pending', swimmerName: 'Fake Entry' })
    expect((await db().select({ status: campRegistrations.status }).from(campRegistrations).where(eq(campRegistrations.id, newcomer.id)))[0]!.status).toBe('expired')
  })

  it('queues by the time of confirmation: who confirms first is offered first', async () => {
    const holder = await fullBatch()
    const early = await join(parent('Joined First'))
    const late = await join(parent('Confirmed First'), { now: minutesAfter(JUNE, 1) })
    await confirmWaitlistPlace(late.entryId, minutesAfter(JUNE, 2))
    await confirmWaitlistPlace(early.entryId, minutesAfter(JUNE, 3))
    expect(await waitlistPlace(late.entryId, minutesAfter(JUNE, 3))).toMatchObject({ state: 'queued', position: 1 })
    expect(await waitlistPlace(early.entryId, minutesAfter(JUNE, 3))).toMatchObject({ state: 'queued', position: 2 })
    await db().update(campRegistrations).set({ status: 'payment_failed', holdExpiresAt: null }).where(eq(campRegistrations.id, holder.id))
    expect(await offerFreedSeats(minutesAfter(JUNE, 4))).toBe(1)
    expect((await entry(late.entryId)).status).toBe('offered')
    expect((await entry(early.entryId)).status).toBe('waiting')
  })

  it(`lapses after ${24} hours: the job marks it expired, it can no longer be confirmed, and the swimmer may join again`, async () => {
    await fullBatch()
    const meera = parent('Meera Iyer')
    const lapsing = await join(meera)
    const kept = await join()
    await confirmWaitlistPlace(kept.entryId, minutesAfter(JUNE, 10))
    const dayLater = hoursAfter(JUNE, 24)

    expect(await waitlistPlace(lapsing.entryId, minutesAfter(dayLater, -1))).toMatchObject({ state: 'unconfirmed' })
    expect(await confirmWaitlistPlace(lapsing.entryId, dayLater)).toMatchObject({ state: 'ended' })
    expect((await entry(lapsing.entryId)).confirmedAt).toBeNull()
    // Before the job has run, joining again replaces the lapsed entry.
    const again = await join(meera, { now: dayLater })
    expect((await entry(lapsing.entryId)).status).toBe('expired')
    expect(await expireUnconfirmedWaitlist(hoursAfter(dayLater, 23))).toBe(0)
    expect(await expireUnconfirmedWaitlist(hoursAfter(dayLater, 24))).toBe(1)
    expect((await entry(again.entryId)).status).toBe('expired')
    expect((await entry(kept.entryId)).status).toBe('waiting')
    expect(await waitlistPlace(again.entryId, hoursAfter(dayLater, 24))).toMatchObject({ state: 'ended' })
  })
})

describe('one place per swimmer per camp', () => {
  it('a swimmer cannot wait in two batches of one camp, confirmed or not; another camp, or a brother or sister, is fine', async () => {
    await fullBatch('camp1', 'batch1')
    await fullBatch('camp1', 'batch2')
    await fullBatch('camp2', 'batch1')
    const dev = parent('Dev Kumar')
    const first = await join(dev)
    await expect(join({ ...dev, swimmerName: 'DEV KUMAR', email: dev.email.toUpperCase() }, { batch: 'batch2' })).rejects.toThrow(
      new AlreadyWaitingError('DEV KUMAR', 'Camp 1', false),
    )
    expect(new AlreadyWaitingError('Dev Kumar', 'Camp 1', false).message).toBe('Dev Kumar is already on the waitlist for Camp 1. Please click the link in the e-mail we sent you to keep the place.')
    await confirmWaitlistPlace(first.entryId, JUNE)
    await expect(join(dev, { batch: 'batch2' })).rejects.toThrow(new AlreadyWaitingError('Dev Kumar', 'Camp 1', true))
    await expect(join(dev, { batch: 'batch1' })).rejects.toThrow(AlreadyWaitingError)
    await expectWaiting(join(dev, { camp: 'camp2' }))
    await expectWaiting(join({ ...dev, swimmerName: 'Diya Kumar' }, { batch: 'batch2' }))
    expect(await db().select().from(campWaitlist).where(eq(campWaitlist.swimmerName, 'Dev Kumar'))).toHaveLength(2)
  })

  it('of 10 submissions at once for both batches of a camp, one place is made', async () => {
    await fullBatch('camp1', 'batch1')
    await fullBatch('camp1', 'batch2')
    const dev = parent('Dev Kumar')
    const rush = await Promise.allSettled(Array.from({ length: 10 }, (_, index) => join(dev, { batch: index % 2 ? 'batch1' : 'batch2', ip: `10.1.0.${index}` })))
    expect(rush.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    expect(rush.every((result) => result.status === 'fulfilled' || result.reason instanceof AlreadyWaitingError)).toBe(true)
    expect(await db().select().from(campWaitlist)).toHaveLength(1)
  })
})

describe('places per client network', () => {
  it('at most 3 places held from one network (any camp, waiting or offered); an IPv6 /64 is one network; a place that ends frees one', async () => {
    await fullBatch('camp1', 'batch1')
    await fullBatch('camp1', 'batch2')
    await fullBatch('camp2', 'batch1')
    await fullBatch('camp2', 'batch2')
    const home = '2001:db8:1:2::10'
    const first = await join(parent(), { ip: home })
    await join(parent(), { ip: '2001:db8:1:2:aaaa::1', batch: 'batch2' })
    const third = await join(parent(), { ip: '2001:db8:1:2:ffff:ffff:ffff:ffff', camp: 'camp2' })
    expect((await entry(first.entryId)).holderNetwork).toBe('2001:db8:1:2::/64')
    // An offered place still counts.
    await confirmWaitlistPlace(third.entryId, JUNE)
    await db().update(campRegistrations).set({ status: 'payment_failed', holdExpiresAt: null }).where(eq(campRegistrations.batchId, (await entry(third.entryId)).batchId))
    expect(await offerFreedSeats(JUNE)).toBe(1)
    expect((await entry(third.entryId)).status).toBe('offered')
    await db().update(campRegistrations).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(campRegistrations.status, 'pending'))

    await expect(join(parent(), { ip: '2001:db8:1:2::99', camp: 'camp2', batch: 'batch2' })).rejects.toThrow(new WaitlistNetworkLimitError())
    expect(new WaitlistNetworkLimitError().message).toBe('Your internet connection already holds 3 places on our camp waitlists, the most we allow. Please try again once one of them has ended.')
    // The neighbouring /64 and an IPv4 client are other networks.
    await expectWaiting(join(parent(), { ip: '2001:db8:1:3::1', camp: 'camp2', batch: 'batch2' }))
    await expectWaiting(join(parent(), { ip: '192.0.2.44', camp: 'camp2', batch: 'batch2' }))
    // A day later the two unconfirmed places have lapsed.
    await expectWaiting(join(parent(), { ip: home, camp: 'camp2', batch: 'batch2', now: hoursAfter(JUNE, 24) }))
  })
})
