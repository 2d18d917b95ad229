import { and, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { campBatches, campRegistrations, camps, campWaitlist, outboxMessages } from '~/db/schema'
import { addHours, addMinutes, addSeconds, labInstant } from '~/lib/lab-time'
import { INVALID_PHONE_NUMBER } from '~/lib/phone-field'
import { listCamps } from '~/modules/site/site.server'
import { HOLD_ATTEMPT_LIMITS } from '~/modules/holders/holders.server'
import { RateLimitedError } from '~/modules/rate-limit/rate-limit.server'
import { visitor } from '../../../tests/support/holders'
import { useTestDatabase } from '../../../tests/support/test-database'
import { campChoices } from './camps.server'
import { AlreadyRegisteredError, BatchFullError, BatchNotInCampError, CampNotFoundError, expireStaleCampHolds, holdCampSeat, RegistrationClosedError } from './registrations.server'
import { CAMP_DECLARATION_MESSAGE, CampRegistrationSchema } from './schemas'
import { AlreadyWaitingError, confirmWaitlistPlace, joinWaitlist, offerFreedSeats } from './waitlist.server'

useTestDatabase()

// Camps seeded for August 2030 with an early-bird deadline at the end of 15 July 2030 in Bangalore.
const YEAR = 2030
const JUNE = new Date(`${YEAR}-06-01T06:00:00Z`)
const minutesAfter = (at: Date, minutes: number) => addMinutes(at, minutes)

beforeEach(async () => {
  await db().update(camps).set({ startsOn: `${YEAR}-08-08`, endsOn: `${YEAR}-08-16`, earlyBirdEndsAt: labInstant(`${YEAR}-07-15`, '23:59:59') }).where(eq(camps.code, 'camp1'))
  await db().update(camps).set({ startsOn: `${YEAR}-08-18`, endsOn: `${YEAR}-08-26`, earlyBirdEndsAt: labInstant(`${YEAR}-07-15`, '23:59:59') }).where(eq(camps.code, 'camp2'))
})

let nextParent = 1
const parent = (overrides: Partial<{ swimmerName: string; email: string; phone: string }> = {}) => ({ swimmerName: `Swimmer ${nextParent}`, email: `parent${nextParent++}@example.com`, phone: '9845012345', ...overrides })
const hold = (applicant = parent(), { camp = 'camp1', batch = 'batch1', now = JUNE, ip = `198.51.100.${nextParent % 250}`, holder = visitor({ network: ip, email: applicant.email }) } = {}) =>
  holdCampSeat({ campCode: camp, batchCode: batch, applicant, holder: { ...holder, email: applicant.email }, now })

async function setCapacity(capacity: number, camp = 'camp1', batch = 'batch1') {
  const [target] = await db().select({ id: campBatches.id }).from(campBatches).innerJoin(camps, eq(camps.id, campBatches.campId)).where(and(eq(camps.code, camp), eq(campBatches.code, batch)))
  await db().update(campBatches).set({ capacity }).where(eq(campBatches.id, target!.id))
}

const registration = async (id: number) => (await db().select().from(campRegistrations).where(eq(campRegistrations.id, id)))[0]!
/** Expects the parent to get the seat: their registration waits for payment. */
const expectSeatHeld = async (held: Promise<{ id: number }>) => expect((await registration((await held).id)).status).toBe('pending')

describe('the camp fee', () => {
  it('is the early-bird price until the end of the deadline day in Bangalore, then the regular price; banner and form agree', async () => {
    const lastEarlySecond = new Date(`${YEAR}-07-15T18:29:58Z`) // 23:59:58 IST
    const firstRegularSecond = new Date(`${YEAR}-07-15T18:30:00Z`) // 00:00:00 IST on 16 July
    for (const [now, price, earlyBird] of [
      [lastEarlySecond, 35_000_00, true],
      [firstRegularSecond, 40_000_00, false],
    ] as const) {
      const [formCamp] = await campChoices(now)
      const [bannerCamp] = await listCamps(now)
      expect(formCamp!.pricePaise).toBe(price)
      expect(bannerCamp!.currentPricePaise).toBe(price)
      expect(bannerCamp!.earlyBird).toBe(earlyBird)
      const held = await hold(parent(), { now })
      expect((await registration(held.id)).amountPaise).toBe(price)
    }
  })
})

describe('holding a seat', () => {
  it('costs a parent none of their attempts while the batch is full, and counts each attempt at a seat', async () => {
    await setCapacity(1)
    await hold()
    const holder = visitor({ network: '198.51.100.77' })
    const late = parent()
    for (let attempt = 0; attempt <= HOLD_ATTEMPT_LIMITS.perEmail.limit; attempt += 1) {
      await expect(hold(late, { holder })).rejects.toBeInstanceOf(BatchFullError)
    }
    await setCapacity(30)
    for (let attempt = 0; attempt < HOLD_ATTEMPT_LIMITS.perEmail.limit; attempt += 1) await hold(late, { holder })
    await expect(hold(late, { holder })).rejects.toBeInstanceOf(RateLimitedError)
  })

  it('holds a seat for 20 minutes as a pending registration, and counts it against the batch', async () => {
    const held = await hold()
    const row = await registration(held.id)
    expect(row).toMatchObject({ status: 'pending', amountPaise: 35_000_00 })
    expect(row.reference).toMatch(/^CMP-\d{10}$/)
    expect(row.holdExpiresAt).toEqual(minutesAfter(JUNE, 20))
    const [camp1] = await campChoices(JUNE)
    expect(camp1!.batches.map((batch) => batch.seatsLeft)).toEqual([29, 30])
    // The hold runs out: the seat is free again, before any clean-up job.
    const [later] = await campChoices(minutesAfter(JUNE, 20))
    expect(later!.batches[0]!.seatsLeft).toBe(30)
  })

  it('refuses the seat after the last one, with a message that offers the waitlist', async () => {
    await setCapacity(2)
    await hold()
    await hold()
    await expect(hold()).rejects.toThrow(new BatchFullError('Camp 1', 'Batch 1'))
    await expectSeatHeld(hold(parent(), { batch: 'batch2' }))
  })

  it(`of 200 parents submitting at once for the last seat, exactly one gets it (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    await setCapacity(5)
    for (let index = 0; index < 4; index += 1) await hold()
    const rush = await Promise.allSettled(Array.from({ length: 200 }, (_, index) => hold(parent(), { ip: `10.0.${Math.floor(index / 250)}.${index % 250}` })))
    expect(rush.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    expect(rush.every((result) => result.status === 'fulfilled' || result.reason instanceof BatchFullError)).toBe(true)
    const seats = await db().select().from(campRegistrations).where(eq(campRegistrations.status, 'pending'))
    expect(seats).toHaveLength(5)
  })

  it('names a batch the chosen camp does not have, and a camp that does not exist, for the waitlist too', async () => {
    const [camp2] = await db().select({ id: camps.id }).from(camps).where(eq(camps.code, 'camp2'))
    await db().update(campBatches).set({ code: 'evening' }).where(and(eq(campBatches.campId, camp2!.id), eq(campBatches.code, 'batch2')))
    await expect(hold(parent(), { camp: 'camp2', batch: 'batch2' })).rejects.toThrow(new BatchNotInCampError('Camp 2'))
    await expect(joinWaitlist({ campCode: 'camp2', batchCode: 'batch2', applicant: parent(), ip: '198.51.100.9', now: JUNE })).rejects.toThrow(new BatchNotInCampError('Camp 2'))
    expect(new BatchNotInCampError('Camp 2').message).toBe('Camp 2 has no such batch. Please select one of its batches.')
    await expect(hold(parent(), { camp: 'camp9' })).rejects.toThrow(new CampNotFoundError())
    await expectSeatHeld(hold(parent(), { camp: 'camp2', batch: 'evening' }))
  })

  it('the same swimmer cannot be registered twice for a camp; a brother or sister with the same e-mail can', async () => {
    const asha = parent({ swimmerName: 'Asha Rao', email: 'rao.family@example.com' })
    const family = visitor({ email: asha.email })
    const paid = async (held: Promise<{ id: number }>) => db().update(campRegistrations).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(campRegistrations.id, (await held).id))
    await paid(hold(asha, { holder: family }))
    await expect(hold({ ...asha, swimmerName: 'ASHA RAO', email: 'Rao.Family@example.com' }, { holder: family })).rejects.toThrow(AlreadyRegisteredError)
    await paid(hold({ ...asha, swimmerName: 'Ashwin Rao' }, { holder: family }))
    // The same swimmer in the other camp is fine.
    await expectSeatHeld(hold(asha, { camp: 'camp2', holder: family }))
  })

  it('a second attempt of the same swimmer replaces an unpaid first one instead of holding two seats', async () => {
    const kiran = parent({ swimmerName: 'Kiran Das' })
    const browser = visitor({ email: kiran.email })
    const first = await hold(kiran, { holder: browser })
    const second = await hold(kiran, { batch: 'batch2', holder: browser })
    expect((await registration(first.id)).status).toBe('expired')
    expect((await registration(second.id)).status).toBe('pending')
  })

  it('closes when the camp starts in Bangalore, or when staff close it', async () => {
    const dayBefore = new Date(`${YEAR}-08-07T18:29:00Z`) // 23:59 IST on 7 August
    const firstDay = new Date(`${YEAR}-08-07T18:30:00Z`) // 00:00 IST on 8 August
    await expectSeatHeld(hold(parent(), { now: dayBefore }))
    await expect(hold(parent(), { now: firstDay })).rejects.toThrow(RegistrationClosedError)
    expect((await campChoices(firstDay)).map((camp) => camp.open)).toEqual([false, true])
    await db().update(camps).set({ isOpen: false }).where(eq(camps.code, 'camp2'))
    await expect(hold(parent(), { camp: 'camp2' })).rejects.toThrow('Registration for Camp 2 is closed.')
  })
})

describe('the waitlist', () => {
  it('queues parents for a full batch; a freed seat is held for the first in line, who is e-mailed a link to pay', async () => {
    await setCapacity(1)
    const holder = await hold()
    const first = parent({ swimmerName: 'First Waiting' })
    const second = parent({ swimmerName: 'Second Waiting' })
    for (const [applicant, ip, position] of [
      [first, '1.1.1.1', 1],
      [second, '1.1.1.2', 2],
    ] as const) {
      const { entryId } = await joinWaitlist({ campCode: 'camp1', batchCode: 'batch1', applicant, ip, now: JUNE })
      expect(await confirmWaitlistPlace(entryId, JUNE)).toMatchObject({ state: 'queued', position })
    }
    await expect(joinWaitlist({ campCode: 'camp1', batchCode: 'batch1', applicant: { ...first, swimmerName: 'first waiting' }, ip: '1.1.1.1', now: JUNE })).rejects.toThrow(AlreadyWaitingError)
    expect(await offerFreedSeats(JUNE)).toBe(0)

    // The holder never pays: the seat goes to the first in line, not to a newcomer.
    const later = minutesAfter(JUNE, 21)
    expect(await expireStaleCampHolds(later)).toBe(1)
    await expect(hold(parent(), { now: later })).rejects.toThrow(BatchFullError)
    expect(await offerFreedSeats(later)).toBe(1)
    const [offer] = await db().select().from(campWaitlist).where(eq(campWaitlist.status, 'offered'))
    expect(offer!.swimmerName).toBe('First Waiting')
    const held = await registration(offer!.registrationId!)
    expect(held).toMatchObject({ status: 'pending', swimmerName: 'First Waiting', amountPaise: 35_000_00 })
    expect(held.holdExpiresAt).toEqual(addHours(later, 12))
    const [mail] = await db().select().from(outboxMessages).where(eq(outboxMessages.subject, 'A seat is free: Camp 1, Batch 1'))
    expect(mail!.to).toBe(first.email)
    expect(mail!.text).toMatch(new RegExp(`/onboarding/offer\\?registration=${held.reference}&key=[\\w-]{32}`))
    expect(mail!.text).toMatch(/Camp:\s+Camp 1, 8–16 August \d{4}/)
    expect((await registration(holder.id)).status).toBe('expired')

    // The first in line lets the offer lapse: the seat passes to the second.
    const muchLater = addSeconds(held.holdExpiresAt!, 1)
    await expireStaleCampHolds(muchLater)
    expect(await offerFreedSeats(muchLater)).toBe(1)
    const offers = await db().select().from(campWaitlist)
    expect(offers.map((entry) => [entry.swimmerName, entry.status]).sort()).toEqual([
      ['First Waiting', 'expired'],
      ['Second Waiting', 'offered'],
    ])
  })

  it('does not offer a seat to someone who registered meanwhile, and takes them off the list', async () => {
    await setCapacity(1)
    const held = await hold()
    const meera = parent({ swimmerName: 'Meera Iyer' })
    await confirmWaitlistPlace((await joinWaitlist({ campCode: 'camp1', batchCode: 'batch1', applicant: meera, ip: '1.1.1.3', now: JUNE })).entryId, JUNE)
    const other = await hold(meera, { batch: 'batch2' })
    await db().update(campRegistrations).set({ status: 'confirmed', holdExpiresAt: null }).where(eq(campRegistrations.id, other.id))
    await db().update(campRegistrations).set({ status: 'payment_failed', holdExpiresAt: null }).where(eq(campRegistrations.id, held.id))
    expect(await offerFreedSeats(JUNE)).toBe(0)
    expect((await db().select().from(campWaitlist))[0]!.status).toBe('cancelled')
  })
})

describe('the form', () => {
  const valid = { name: 'Arjun Menon', email: 'parent@example.com', phone_number: '98450 12345', guardianDeclaration: 'on', camp: 'camp1', batch: 'batch2' }
  const errors = (values: Record<string, string | undefined>) => {
    const result = CampRegistrationSchema.safeParse(values)
    return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]))
  }

  it('accepts a complete form', () => {
    expect(errors(valid)).toEqual({})
  })

  it('gives each field its own message', () => {
    expect(errors({ ...valid, name: 'A' })).toEqual({ name: 'Name must be at least 2 characters' })
    expect(errors({ ...valid, email: 'parent.example.com' })).toEqual({ email: 'Invalid email address' })
    expect(errors({ ...valid, phone_number: '98450' })).toEqual({ phone_number: 'Phone number must be at least 10 digits' })
    expect(errors({ ...valid, camp: undefined })).toEqual({ camp: 'Please select a camp' })
    expect(errors({ ...valid, batch: undefined })).toEqual({ batch: 'Please select a batch' })
    expect(errors({ ...valid, guardianDeclaration: undefined })).toEqual({ guardianDeclaration: CAMP_DECLARATION_MESSAGE })
    expect(errors({})).toEqual({
      name: 'Name must be at least 2 characters',
      email: 'Invalid email address',
      phone_number: 'Phone number must be at least 10 digits',
      camp: 'Please select a camp',
      batch: 'Please select a batch',
      guardianDeclaration: CAMP_DECLARATION_MESSAGE,
    })
  })

  it('refuses a camp or batch that is not a code, and a phone number that is not one', () => {
    expect(errors({ ...valid, camp: "camp1'; DROP TABLE camps" })).toEqual({ camp: 'Please select a camp' })
    expect(errors({ ...valid, phone_number: 'call me maybe' })).toEqual({ phone_number: 'Phone number must be at least 10 digits' })
    expect(errors({ ...valid, phone_number: 'call 98450 12345' })).toEqual({ phone_number: INVALID_PHONE_NUMBER })
    expect(errors({ ...valid, phone_number: '044 2345 6789' })).toEqual({ phone_number: INVALID_PHONE_NUMBER })
  })
})
