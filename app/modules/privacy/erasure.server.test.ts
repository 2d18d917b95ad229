import { readFileSync } from 'node:fs'
import { asc, eq, inArray, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { auditLog, bookings, campRegistrations, camps, consentRequests, outboxMessages, users, whatsappConsents } from '~/db/schema'
import { labInstant } from '~/lib/lab-time'
import { toE164 } from '~/lib/phone'
import { registerCustomer } from '~/modules/accounts/registration.server'
import { disableCustomer, enableCustomer } from '~/modules/accounts/staff.server'
import { createStaffBooking, type StaffBookingInput } from '~/modules/booking/staff.server'
import { holdCampSeat } from '~/modules/camps/registrations.server'
import { moveRegistration } from '~/modules/camps/staff-registrations.server'
import { insertSwimmer } from '~/modules/swimmers/swimmers.server'
import { optInToWhatsApp, optOutOfWhatsApp } from '~/modules/whatsapp/consent.server'
import { registrationInput, swimmerInput } from '../../../tests/support/accounts'
import { createCustomers, createStaff, setWindows } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { accountErasedEmail } from './emails.server'
import { eraseAccount, eraseSwimmer } from './erasure.server'
import { accountDataOf } from './export.server'

useTestDatabase()

// 1 March 2030, 10:00 in Bangalore: the sessions below are days ahead, the camp months ahead.
const NOW = new Date('2030-03-01T04:30:00Z')
const DATES = ['2030-03-04', '2030-03-05', '2030-03-06']
type Staff = Awaited<ReturnType<typeof createStaff>>

const session = (customer: StaffBookingInput['customer'], overrides: Partial<StaffBookingInput> = {}): StaffBookingInput => ({
  productCode: 'single_race',
  days: 1,
  date: DATES[0]!,
  start: '09:00',
  customer,
  origin: 'complimentary',
  amountPaise: 0,
  paymentMethod: null,
  notes: null,
  ...overrides,
})

async function openLab() {
  await setWindows(DATES.map((date) => ({ date, capacity: 20 })))
  await db().update(camps).set({ startsOn: '2030-08-08', endsOn: '2030-08-16', earlyBirdEndsAt: labInstant('2030-07-15', '23:59:59') }).where(eq(camps.code, 'camp1'))
  return createStaff()
}

/** A confirmed camp place, which staff then move to the other batch (an audit entry and an e-mail naming the swimmer). */
async function campPlace(staff: Staff, swimmerName: string, email: string, phone: string) {
  const held = await holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant: { swimmerName, email, phone }, now: NOW })
  await db().update(campRegistrations).set({ status: 'confirmed', holdExpiresAt: null, confirmedAt: NOW }).where(eq(campRegistrations.id, held.id))
  await moveRegistration(staff, { campCode: 'camp1', reference: held.reference, toBatchCode: 'batch2', now: NOW })
  return held
}

/**
 * A customer as staff meet them: an account with a booking staff made (its confirmation e-mail
 * and audit entry), a camp place staff moved, and their account disabled and enabled again (audit
 * entries with their name and address).
 */
async function customer(staff: Staff, { tag, name, phone }: { tag: string; name: string; phone: string }) {
  const [account] = await createCustomers(1, tag)
  await db().update(users).set({ name, phone }).where(eq(users.id, account!.userId!))
  const booking = await createStaffBooking(staff, session({ name, email: account!.email, phone }), NOW)
  const place = await campPlace(staff, name, account!.email, phone)
  await disableCustomer({ actor: staff, userId: account!.userId!, now: NOW })
  await enableCustomer({ actor: staff, userId: account!.userId!, now: NOW })
  return { ...account!, name, phone, booking, place }
}

/**
 * What the rest of the lab holds: a newcomer's queued verification code, a guest's booking (its
 * confirmation and the staff entry that names her), a guest's camp place, and staff's own entries.
 */
async function othersOfTheLab(staff: Staff) {
  await registerCustomer(registrationInput({ name: 'Nadia Fernandes', email: 'nadia@example.com' }), { ip: '203.0.113.5', now: NOW })
  await createStaffBooking(staff, session({ name: 'Meera Iyer', email: 'meera@example.com', phone: '9845098450' }, { start: '10:00' }), NOW)
  await campPlace(staff, 'Rohan Iyer', 'meera@example.com', '9845098450')
}

/** Every outbox message and audit entry, whole. */
async function everything() {
  return {
    messages: await db().select().from(outboxMessages).orderBy(asc(outboxMessages.id)),
    audit: await db().select().from(auditLog).orderBy(asc(auditLog.id)),
  }
}

type Snapshot = Awaited<ReturnType<typeof everything>>

/** The rows of `before` that `keep` picks are all still there, byte for byte. */
async function expectKept(before: Snapshot, keep: { message: (row: Snapshot['messages'][number]) => boolean; audit: (row: Snapshot['audit'][number]) => boolean }) {
  const after = await everything()
  const kept = before.messages.filter(keep.message)
  expect(kept.length).toBeGreaterThan(0)
  expect(after.messages.filter((row) => kept.some((old) => old.id === row.id))).toEqual(kept)
  const keptAudit = before.audit.filter(keep.audit)
  expect(keptAudit.length).toBeGreaterThan(0)
  expect(after.audit.filter((row) => keptAudit.some((old) => old.id === row.id))).toEqual(keptAudit)
}

const farewell = ({ email, cancelled }: { email: string; cancelled: Parameters<typeof accountErasedEmail>[0]['cancelled'] }) => accountErasedEmail({ to: email, cancelled })

describe('erasure goes by structure, never by what a text says', () => {
  it('a customer called "Lab" with a swimmer called "Booking": erasing the swimmer, then the account, leaves every other message and audit entry as it was', async () => {
    const staff = await openLab()
    await othersOfTheLab(staff)
    const lab = await customer(staff, { tag: 'labname', name: 'Lab', phone: '9845011111' })
    const child = await insertSwimmer(db(), lab.userId!, 'Booking', swimmerInput({ name: 'Booking' }), { isAccountHolder: false, now: NOW })
    const childSession = await createStaffBooking(staff, session({ name: 'Lab', email: lab.email, phone: lab.phone }, { swimmerName: 'Booking', date: DATES[1]! }), NOW)
    expect((await db().select({ swimmerId: bookings.swimmerId }).from(bookings).where(eq(bookings.id, childSession.id)))[0]!.swimmerId).toBe(child.id)

    const labsReferences = [lab.booking.reference, childSession.reference, lab.place.reference]
    const isLabs = { message: (row: Snapshot['messages'][number]) => row.to === lab.email, audit: (row: Snapshot['audit'][number]) => row.actorId === lab.userId || row.entityId === String(lab.userId) || labsReferences.includes(row.entityId) }
    const notLabs = { message: (row: Snapshot['messages'][number]) => !isLabs.message(row), audit: (row: Snapshot['audit'][number]) => !isLabs.audit(row) }

    const beforeSwimmer = await everything()
    await eraseSwimmer(lab.userId!, child.id, { reason: 'Deleted by the account holder.', now: NOW })
    await expectKept(beforeSwimmer, notLabs)
    // The account holder's own booking and its entries are not the swimmer's.
    await expectKept(beforeSwimmer, { message: (row) => isLabs.message(row) && !row.subject.includes(childSession.reference), audit: (row) => row.entityId === lab.booking.reference || row.entityId === String(lab.userId) })

    const beforeAccount = await everything()
    const erased = await eraseAccount(lab.userId!, { reason: 'The account holder deleted the account.', now: NOW, farewell })
    await expectKept(beforeAccount, notLabs)
    // The staff member's address stays on every entry they wrote.
    expect(new Set((await db().select({ actor: auditLog.actorEmail }).from(auditLog).where(eq(auditLog.actorId, staff.id))).map((row) => row.actor))).toEqual(new Set([staff.email]))

    // What was Lab's: the messages gone (but the last one), the entries kept with the person's values replaced.
    expect((await db().select({ subject: outboxMessages.subject }).from(outboxMessages).where(eq(outboxMessages.to, lab.email))).map((row) => row.subject)).toEqual(['Your account at Swimming Sport Science Lab has been deleted'])
    const entries = (await everything()).audit.filter(isLabs.audit)
    expect(entries.length).toBeGreaterThanOrEqual(5)
    for (const entry of entries) {
      expect(JSON.stringify([entry.summary, entry.before, entry.after])).not.toMatch(/labname|9845011111/)
      for (const value of Object.values(entry.personal ?? {})) expect(value).toMatch(/^erased-(account|swimmer)-[0-9a-f]+$/)
    }
    expect(entries.find((entry) => entry.action === 'customer.disable')!.personal).toEqual({ customer: erased!.marker, email: erased!.marker })
  })

  it('a swimmer called "the": erasing them leaves every other message and audit entry as it was', async () => {
    const staff = await openLab()
    await othersOfTheLab(staff)
    const parent = await customer(staff, { tag: 'thename', name: 'Sita Raman', phone: '9845022222' })
    const child = await insertSwimmer(db(), parent.userId!, 'the', swimmerInput({ name: 'the' }), { isAccountHolder: false, now: NOW })
    const childSession = await createStaffBooking(staff, session({ name: 'Sita Raman', email: parent.email, phone: parent.phone }, { swimmerName: 'the', date: DATES[1]! }), NOW)
    const before = await everything()
    await eraseSwimmer(parent.userId!, child.id, { reason: 'Deleted by the account holder.', now: NOW })
    await expectKept(before, { message: (row) => !row.subject.includes(childSession.reference), audit: (row) => row.entityId !== childSession.reference })
  })

  it('two customers of the same full name: erasing one leaves every message and audit entry of the other, of staff and of the rest of the lab byte-identical', async () => {
    const staff = await openLab()
    await othersOfTheLab(staff)
    const one = await customer(staff, { tag: 'ashaone', name: 'Asha Rao', phone: '9845033333' })
    const two = await customer(staff, { tag: 'ashatwo', name: 'Asha Rao', phone: '9845044444' })
    // Entries written before entries kept a person's values apart (no `personal`), about each one's booking.
    const [oldOne, oldTwo] = await db()
      .insert(auditLog)
      .values([one, two].map((person) => ({ actorId: staff.id, actorEmail: staff.email, action: 'customer.note', entityType: 'booking', entityId: person.booking.reference, bookingId: person.booking.id, accountId: person.userId, summary: `Called Asha Rao on ${person.phone}`, before: { phone: person.phone }, after: { phone: null }, createdAt: NOW })))
      .returning({ id: auditLog.id })

    const onesReferences = [one.booking.reference, one.place.reference]
    const before = await everything()
    await eraseAccount(one.userId!, { reason: 'The account holder deleted the account.', now: NOW, farewell })
    await expectKept(before, { message: (row) => row.to !== one.email, audit: (row) => row.entityId !== String(one.userId) && !onesReferences.includes(row.entityId) })

    const [oldEntry] = await db().select().from(auditLog).where(eq(auditLog.id, oldOne!.id))
    expect(oldEntry).toMatchObject({ summary: 'customer.note (details erased)', before: null, after: null, actorEmail: staff.email })
    expect((await db().select().from(auditLog).where(eq(auditLog.id, oldTwo!.id)))[0]).toEqual(before.audit.find((row) => row.id === oldTwo!.id))
    expect((await db().select({ to: outboxMessages.to }).from(outboxMessages).where(eq(outboxMessages.to, two.email))).length).toBeGreaterThanOrEqual(2)
  })
})

describe('consent e-mails to a parent written before messages said whom they are about', () => {
  it("are tied to the swimmer by their request (same instant, same address) and erased with the swimmer; the parent's own mail stays", async () => {
    await openLab()
    const [parent] = await createCustomers(1, 'guardianof')
    const child = await insertSwimmer(db(), parent!.userId!, 'Kiran Guardianof', swimmerInput({ name: 'Kiran Guardianof' }), { isAccountHolder: false, now: NOW })
    const askedAt = new Date('2030-02-01T04:30:00Z')
    await db().insert(consentRequests).values({ swimmerId: child.id, parentEmail: 'grandma@example.com', tokenHash: 'hash-grandma', status: 'agreed', expiresAt: NOW, createdAt: askedAt, answeredAt: NOW })
    const legacy = (subject: string, createdAt: Date) => ({ to: 'grandma@example.com', subject, text: subject, createdAt })
    const [request, answer, own] = await db()
      .insert(outboxMessages)
      .values([legacy('Kiran Guardianof asks for your consent', askedAt), legacy('Your consent for Kiran', NOW), legacy('Your verification code', new Date('2030-02-02T04:30:00Z'))])
      .returning({ id: outboxMessages.id })

    const migration = readFileSync(new URL('../../../drizzle/0020_consent_messages_swimmer.sql', import.meta.url), 'utf8')
    for (const statement of migration.split('--> statement-breakpoint')) await db().execute(sql.raw(statement))
    const swimmerOf = async (id: number) => (await db().select({ swimmerId: outboxMessages.swimmerId }).from(outboxMessages).where(eq(outboxMessages.id, id)))[0]?.swimmerId
    expect([await swimmerOf(request!.id), await swimmerOf(answer!.id), await swimmerOf(own!.id)]).toEqual([child.id, child.id, null])

    const [ownBefore] = await db().select().from(outboxMessages).where(eq(outboxMessages.id, own!.id))
    await eraseSwimmer(parent!.userId!, child.id, { reason: 'Deleted by the account holder.', now: NOW })
    expect(await db().select().from(outboxMessages).where(eq(outboxMessages.to, 'grandma@example.com'))).toEqual([ownBefore])
  })
})

describe('a WhatsApp number the account has not proven', () => {
  it("is not the account's: the export holds none of its messages or its consent, and erasing the account leaves its STOP and its messages as they were", async () => {
    const staff = await openLab()
    // Meera's number: staff booked her as a guest, WhatsApp told her, and she replied STOP.
    const guest = await createStaffBooking(staff, session({ name: 'Meera Iyer', email: 'meera@example.com', phone: '9845098450' }), NOW)
    const meerasNumber = toE164('9845098450')!
    await db().insert(outboxMessages).values({ channel: 'whatsapp', to: meerasNumber, subject: 'Booking confirmed', text: `Hello Meera Iyer, ${guest.reference} is confirmed`, templateName: 'booking_confirmed', templateParams: ['Meera Iyer', guest.reference], bookingId: guest.id, createdAt: NOW })
    await optInToWhatsApp({ phone: meerasNumber, source: 'booking' }, db(), NOW)
    await optOutOfWhatsApp({ phone: meerasNumber, source: 'reply' }, db(), NOW)
    // A stranger types her number into their account.
    const [stranger] = await createCustomers(1, 'numbertaker')
    await db().update(users).set({ phone: '98450 98450', phoneVerifiedAt: null }).where(eq(users.id, stranger!.userId!))

    const data = (await accountDataOf(stranger!.userId!))!
    expect(data.whatsappConsent).toBeNull()
    expect(data.whatsappMessages).toEqual([])
    expect(JSON.stringify(data)).not.toContain('Meera')

    const consentBefore = await db().select().from(whatsappConsents)
    const messagesBefore = await db().select().from(outboxMessages).where(eq(outboxMessages.to, meerasNumber))
    await eraseAccount(stranger!.userId!, { reason: 'The account holder deleted the account.', now: NOW, farewell })
    expect(await db().select().from(whatsappConsents)).toEqual(consentBefore)
    expect(consentBefore).toMatchObject([{ phone: meerasNumber, optedIn: false, optOutSource: 'reply' }])
    expect(await db().select().from(outboxMessages).where(eq(outboxMessages.to, meerasNumber))).toEqual(messagesBefore)
  })

  it("once proven it is the account's: exported, its opt-in erased with the account, but a STOP it replied is kept", async () => {
    await openLab()
    const [proven, stopped] = await createCustomers(2, 'numberowner')
    await db().update(users).set({ phone: '9845055555', phoneVerifiedAt: NOW }).where(eq(users.id, proven!.userId!))
    await db().update(users).set({ phone: '9845066666', phoneVerifiedAt: NOW }).where(eq(users.id, stopped!.userId!))
    await optInToWhatsApp({ phone: '9845055555', source: 'account' }, db(), NOW)
    await optOutOfWhatsApp({ phone: '9845066666', source: 'reply' }, db(), NOW)
    await db().insert(outboxMessages).values({ channel: 'whatsapp', to: '+919845055555', subject: 'Session reminder', text: 'Your session is tomorrow', createdAt: NOW })

    const data = (await accountDataOf(proven!.userId!))!
    expect(data.whatsappConsent).toMatchObject({ number: '+919845055555', state: 'on' })
    expect(data.whatsappMessages).toMatchObject([{ to: '+919845055555', text: 'Your session is tomorrow' }])

    await eraseAccount(proven!.userId!, { reason: 'x', now: NOW, farewell })
    await eraseAccount(stopped!.userId!, { reason: 'x', now: NOW, farewell })
    expect(await db().select({ phone: whatsappConsents.phone, optedIn: whatsappConsents.optedIn }).from(whatsappConsents)).toEqual([{ phone: '+919845066666', optedIn: false }])
    expect(await db().select().from(outboxMessages).where(inArray(outboxMessages.to, ['+919845055555']))).toEqual([])
  })
})

describe('the erasure code', () => {
  it('matches no text: no strpos, LIKE, ILIKE, ~ or regular expression', () => {
    const source = readFileSync(new URL('./erasure.server.ts', import.meta.url), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '')
    expect(source).not.toMatch(/\bstrpos\b|\bi?like\b|\bsimilar\s+to\b|\bregexp\b|\bposition\s*\(|\s!?~\*?\s|\.replace(All)?\(|\bscrub|\bmentions\b/i)
  })
})
