import { mkdtempSync, rmSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { db } from '~/db/client.server'
import { analysisClips, analysisDayLine, analysisFindings, auditLog, campBatches, findingDrills, shareLinks, refunds, campLine, camps, campWaitlist, consentRequests, outboxMessages, payments, receipts, users } from '~/db/schema'
import { addDays, labInstant } from '~/lib/lab-time'
import { createSession } from '~/modules/accounts/sessions.server'
import { recordAudit } from '~/modules/audit/audit.server'
import { holdSession, type Customer } from '~/modules/booking/holds.server'
import { holdCampSeat } from '~/modules/camps/registrations.server'
import { startPayment } from '~/modules/payments/payments.server'
import { receiptOf } from '~/modules/receipts/receipts.server'
import { deliverReport } from '~/modules/reports/reports.server'
import { diskStorage, useReportStorage } from '~/modules/reports/storage.server'
import { diskFileStore, useAnalysisFileStore } from '~/modules/analyses/files/store.server'
import { insertSwimmer } from '~/modules/swimmers/swimmers.server'
import { recordedAnalysis } from '../../../tests/support/analyses'
import { releasedDay } from '../../../tests/support/analysis-days'
import { bookingRow, createCustomers, createStaff, setWindows } from '../../../tests/support/booking'
import { useSandboxPayments } from '../../../tests/support/sandbox-payments'
import { useTestDatabase } from '../../../tests/support/test-database'
import { toE164 } from '~/lib/phone'
import { enqueueWhatsApp } from '~/modules/mail/outbox.server'
import { isOptedIn, optInToWhatsApp, WHATSAPP_OPT_IN_WORDING } from '~/modules/whatsapp/consent.server'
import { accountErasedEmail } from './emails.server'
import { APART_FROM_ACCOUNTS_COLUMNS, ERASURE_HANDLED_COLUMNS, eraseAccount, eraseSwimmer, NOT_PERSONAL_COLUMNS } from './erasure.server'
import { accountDataOf, buildDataExport } from './export.server'

useTestDatabase()
let dayOfTheLine: number | null = null
const sandbox = useSandboxPayments()
const root = mkdtempSync(path.join(tmpdir(), 'privacy-reports-'))
let directory = root
beforeEach(async () => {
  dayOfTheLine = null
  await sandbox.ready()
  directory = mkdtempSync(path.join(root, 'test-'))
  useReportStorage(diskStorage(directory))
  useAnalysisFileStore(diskFileStore(path.join(directory, 'analysis-files')))
  await db().update(camps).set({ startsOn: '2030-08-08', endsOn: '2030-08-16', earlyBirdEndsAt: labInstant('2030-07-15', '23:59:59') }).where(eq(camps.code, 'camp1'))
})
afterAll(() => {
  useReportStorage(undefined)
  useAnalysisFileStore(undefined)
  rmSync(root, { recursive: true, force: true })
})

const DATES = ['2030-03-04', '2030-03-05', '2030-03-06', '2030-03-07', '2030-03-08']
const PDF = new TextEncoder().encode('%PDF-1.4\n% a report\n')

async function paidSession(customer: Customer, start: string) {
  const held = await holdSession({ customer, productCode: 'biomechanical_package', date: DATES[0]!, start, days: 3 })
  const { redirectUrl, orderId } = await startPayment({ payable: { kind: 'booking', id: held.bookingId }, description: `Slot booking - ${customer.swimmerName}`, statusUrl: (id) => `${sandbox.url}/x?orderId=${id}` })
  await sandbox.choose(redirectUrl, 'success')
  await expect.poll(async () => (await bookingRow(held.bookingId)).status, { timeout: 15_000 }).toBe('confirmed')
  return { ...held, orderId }
}

async function paidCampPlace(swimmerName: string, email: string, phone: string) {
  const held = await holdCampSeat({ campCode: 'camp1', batchCode: 'batch1', applicant: { swimmerName, email, phone } })
  const { redirectUrl, orderId } = await startPayment({ payable: { kind: 'camp', id: held.id }, description: `Camp Registration - ${swimmerName}`, statusUrl: (id) => `${sandbox.url}/payment-status?orderId=${id}` })
  await sandbox.choose(redirectUrl, 'success')
  await expect.poll(async () => (await db().select({ id: receipts.id }).from(receipts).innerJoin(payments, eq(payments.id, receipts.paymentId)).where(eq(payments.orderId, orderId))).length, { timeout: 15_000 }).toBe(1)
  return { ...held, orderId }
}

/**
 * A family as the site would hold it: the account holder, a child with a session and a camp place,
 * a report with a file, a waitlist place, a camp-line entry, a session, e-mails and a staff audit entry
 * naming them. Every value is unique to the family, so a search of the whole database finds only theirs.
 */
async function family(tag: string, phone: string, start: string) {
  const [holder] = await createCustomers(1, tag)
  // The family proved its WhatsApp number is theirs.
  await db().update(users).set({ phone, phoneVerifiedAt: new Date(), currentLocation: `${tag} Nagar` }).where(eq(users.id, holder!.userId!))
  const child = await insertSwimmer(db(), holder!.userId!, `${tag} Junior`, { age: 12, birthDate: null, gender: 'male', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle', participateInEvents: 'no', howDidYouKnow: 'google' }, { isAccountHolder: false, now: new Date() })
  const customer = { ...holder!, phone }
  const own = await paidSession(customer, start)
  const forChild = await paidSession({ ...customer, swimmerId: child.id, swimmerName: child.name }, start === '09:00' ? '10:00' : '11:00')
  await deliverReport({ bookingId: own.bookingId, note: `Good catch, ${holder!.name}.`, videoLinks: [{ label: 'Underwater', url: `https://videos.example/${tag}` }], files: [{ filename: `${tag}-report.pdf`, bytes: PDF }], staffId: null })
  const analysis = await recordedAnalysis(forChild.bookingId, { metrics: { final_time: 33.1 } })
  const [finding] = await db().insert(analysisFindings).values({ analysisId: analysis.analysisId, title: `${tag} breathes late`, priority: 'high' }).returning({ id: analysisFindings.id })
  await db().insert(findingDrills).values({ findingId: finding!.id, name: `${tag} turn drill` })
  await db().insert(analysisClips).values({ analysisId: analysis.analysisId, title: `${tag} underwater`, angle: 'underwater_side', storageKey: `${tag}0000000000000000000000000000`.slice(0, 32).replace(/[^0-9a-f]/g, 'a'), contentType: 'video/mp4', sizeBytes: 1234 })
  await db().insert(shareLinks).values({ accountId: holder!.userId!, swimmerId: child.id, tokenHash: `share-${tag}`, coachEmail: `${tag}.coach@example.com`, expiresAt: addDays(new Date(), 1) })
  const camp = await paidCampPlace(child.name, holder!.email, phone)
  const [campRow] = await db().select({ id: camps.id }).from(camps).where(eq(camps.code, 'camp1'))
  const [batch] = await db().select({ id: campBatches.id }).from(campBatches).where(eq(campBatches.campId, campRow!.id)).limit(1)
  await db().insert(campWaitlist).values({ campId: campRow!.id, batchId: batch!.id, swimmerName: `${tag} Cousin`, email: holder!.email, phone, status: 'cancelled' })
  await db().insert(campLine).values({ campCode: 'camp1', batchCode: 'batch1', swimmerName: `${tag} Cousin`, email: holder!.email, phone, holderNetwork: '203.0.113.0', outcome: 'full' })
  // A booking of an analysis day for the child, in the day's line, told the day was full.
  const dayDetails = { name: holder!.name, email: holder!.email, phone, whoSwims: String(child.id), slot: `${addDays(DATES[0]!, 20)}|09:00`, notes: `${tag} swims 50 m` }
  await db().insert(analysisDayLine).values({ analysisDayId: await lineDay(), details: dayDetails, email: holder!.email, holderUserId: holder!.userId!, holderNetwork: '203.0.113.0', holderBrowser: `${tag}-browser`, outcome: 'full', settledAt: new Date() })
  await db().insert(consentRequests).values({ swimmerId: child.id, parentEmail: `${tag}.parent@example.com`, tokenHash: `hash-${tag}`, status: 'agreed', expiresAt: new Date() })
  await createSession(holder!.userId!, { ip: '203.0.113.77', userAgent: `${tag} browser` })
  await recordAudit(
    db(),
    { id: null, email: 'staff@lab.example' },
    { action: 'customer.note', entityType: 'customer', entityId: holder!.userId!, summary: 'Called {customer} ({email}) on {phone} about {swimmer}', personal: { customer: holder!.name, email: holder!.email, phone, swimmer: child.name }, about: { accountId: holder!.userId!, swimmerId: child.id } },
  )
  // WhatsApp: the account's number opted in and sent a reminder; a grandparent's number, given for a camp-line place, opted in too.
  const guestPhone = `${phone.slice(0, -1)}9`
  await db().insert(campLine).values({ campCode: 'camp1', batchCode: 'batch2', swimmerName: `${tag} Second Cousin`, email: holder!.email, phone: guestPhone, holderNetwork: '203.0.113.0', outcome: 'full' })
  await optInToWhatsApp({ phone, source: 'registration' })
  await optInToWhatsApp({ phone: guestPhone, source: 'camp' })
  await enqueueWhatsApp({ to: toE164(phone)!, title: 'Session reminder', text: `Reminder: ${child.name} swims tomorrow`, template: { name: 'session_reminder', parameters: [holder!.name, child.name] } }, { bookingId: forChild.bookingId })
  await enqueueWhatsApp({ to: toE164(guestPhone)!, title: 'Camp update', text: 'Your camp place', template: { name: 'camp_update', parameters: ['Camp 1'] } }, {})
  return { holder: { ...holder!, phone }, child, own, forChild, camp, guestPhone }
}

/** The analysis day the families' places in its line are for (made once per test). */
async function lineDay() {
  dayOfTheLine ??= (await releasedDay(await createStaff('Organiser'), db(), { venue: 'Balewadi Aquatics', date: addDays(DATES[0]!, 20) })).dayId
  return dayOfTheLine
}

/** The refund asked for the order's payment, if any. */
async function refundOf(orderId: string) {
  const [row] = await db().select({ amountPaise: refunds.amountPaise }).from(refunds).innerJoin(payments, eq(payments.id, refunds.paymentId)).where(eq(payments.orderId, orderId))
  return row ?? null
}

/** Every row of every table with a text or jsonb column holding `value` (case-insensitive): table and row as JSON. */
async function findEverywhere(value: string) {
  const columns = await db().execute<{ table_name: string; column_name: string }>(
    sql`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND data_type IN ('text', 'jsonb', 'character varying') ORDER BY table_name, column_name`,
  )
  const found: Array<{ table: string; column: string; row: Record<string, unknown> }> = []
  for (const { table_name: table, column_name: column } of columns.rows) {
    const { rows } = await db().execute<Record<string, unknown>>(sql`SELECT * FROM ${sql.identifier(table)} WHERE strpos(lower(${sql.identifier(column)}::text), ${value.toLowerCase()}) > 0`)
    for (const row of rows) found.push({ table, column, row })
  }
  return found
}

describe("a person's data export", () => {
  it("holds every table's rows of the account and its swimmers, the receipts and report files, and nothing of another account", async () => {
    await setWindows(DATES.map((date) => ({ date, capacity: 4 })))
    const mine = await family('zarinaquddus', '9000011111', '09:00')
    const theirs = await family('oswinpettigrew', '9000022222', '10:00')

    const zip = unzipSync((await buildDataExport(mine.holder.userId!))!)
    const data = JSON.parse(strFromU8(zip['data.json']!))
    expect(data.account).toMatchObject({ name: mine.holder.name, email: mine.holder.email, whatsappNumber: '9000011111', currentLocation: 'zarinaquddus Nagar' })
    expect(data.swimmers.map((swimmer: { name: string }) => swimmer.name)).toEqual([mine.holder.name, mine.child.name])
    expect(data.bookings.map((booking: { reference: string }) => booking.reference).sort()).toEqual([mine.own.reference, mine.forChild.reference].sort())
    expect(data.bookings[0].days).toHaveLength(3)
    expect(data.bookings.find((booking: { reference: string }) => booking.reference === mine.own.reference).report).toMatchObject({ note: 'Good catch, zarinaquddus 1.' })
    expect(data.campRegistrations).toMatchObject([{ reference: mine.camp.reference, swimmerName: mine.child.name }])
    expect(data.payments).toHaveLength(3)
    expect(data.payments.every((payment: { receiptNumber: string | null }) => payment.receiptNumber)).toBe(true)
    expect(data.consentRequests).toMatchObject([{ parentEmail: 'zarinaquddus.parent@example.com', status: 'agreed' }])
    expect(data.campWaitlist).toMatchObject([{ swimmerName: 'zarinaquddus Cousin' }])
    expect(data.campLine).toMatchObject([
      { swimmerName: 'zarinaquddus Cousin', outcome: 'full' },
      { swimmerName: 'zarinaquddus Second Cousin', phone: '9000011119' },
    ])
    expect(data.analysisDayLine).toMatchObject([{ outcome: 'full', details: { notes: 'zarinaquddus swims 50 m' } }])
    expect(data.sessions).toMatchObject([{ ip: '203.0.113.77', userAgent: 'zarinaquddus browser' }])
    expect(data.emails.length).toBeGreaterThanOrEqual(4)
    expect(data.emails.every((mail: { to: string; body: string }) => mail.to === mine.holder.email && mail.body.length > 0)).toBe(true)
    expect(data.auditEntries.map((entry: { summary: string }) => entry.summary)).toContain(`Called zarinaquddus 1 (zarinaquddus1@example.com) on 9000011111 about zarinaquddus Junior`)
    expect(data.reportFiles).toMatchObject([{ filename: 'zarinaquddus-report.pdf' }])
    expect(data.whatsappConsent).toMatchObject({ number: '+919000011111', state: 'on', optedIn: true, optInSource: 'registration', optInWording: WHATSAPP_OPT_IN_WORDING, optedOutAt: null })
    expect(data.whatsappConsent.optedInAt).toBeTruthy()
    expect(data.whatsappMessages).toMatchObject([{ to: '+919000011111', template: 'session_reminder', parameters: [mine.holder.name, mine.child.name], status: 'queued' }])
    expect(data.analyses).toMatchObject([
      {
        bookingId: mine.forChild.bookingId,
        events: [{ stroke: 'freestyle', distanceMetres: 50, metrics: [{ metricKey: 'final_time', value: 33.1 }] }],
        findings: [{ title: 'zarinaquddus breathes late', drills: [{ name: 'zarinaquddus turn drill' }] }],
        clips: [{ title: 'zarinaquddus underwater', download: expect.stringMatching(/^\/analyses\/clips\/\d+\/video$/) }],
      },
    ])
    expect(data.coachLinks).toMatchObject([{ coachEmail: 'zarinaquddus.coach@example.com', revokedAt: null }])

    const names = Object.keys(zip).sort()
    expect(names.filter((name) => name.startsWith('receipts/'))).toHaveLength(3)
    for (const name of names.filter((name) => name.startsWith('receipts/'))) expect(strFromU8(zip[name]!.subarray(0, 5))).toBe('%PDF-')
    const reportFile = names.find((name) => name.startsWith('reports/'))!
    expect(reportFile).toContain(mine.own.reference)
    expect(zip[reportFile]).toEqual(PDF)

    const everything = JSON.stringify(data)
    for (const other of [theirs.holder.name, theirs.holder.email, theirs.holder.phone, theirs.child.name, theirs.own.reference, theirs.camp.reference, 'oswinpettigrew']) expect(everything).not.toContain(other)
    expect(everything).not.toMatch(/password|token_?hash|code_?hash/i)
  })

  it('is nothing for an account that does not exist', async () => {
    expect(await accountDataOf(999_999)).toBeNull()
    expect(await buildDataExport(999_999)).toBeNull()
  })
})

describe('erasing an account', () => {
  it('cancels and refunds future bookings, leaves no name, address or number anywhere but the last e-mail, keeps the invoices, and leaves others alone', async () => {
    await setWindows(DATES.map((date) => ({ date, capacity: 4 })))
    const mine = await family('zarinaquddus', '9000011111', '09:00')
    const theirs = await family('oswinpettigrew', '9000022222', '10:00')
    const storedBefore = await readdir(path.join(directory, String(mine.own.bookingId)))
    expect(storedBefore).toHaveLength(1)

    const erased = await eraseAccount(mine.holder.userId!, { reason: 'The account holder deleted the account.', farewell: ({ email, cancelled }) => accountErasedEmail({ to: email, cancelled }) })
    expect(erased!.cancelled.map((booking) => booking.reference).sort()).toEqual([mine.own.reference, mine.forChild.reference, mine.camp.reference].sort())

    // The whole database: only the last e-mail, to the address, is left; it names nobody. The
    // account's proven number's WhatsApp consent and messages are gone with it (the numbers are kept in E.164).
    for (const value of [mine.holder.name, mine.holder.phone, mine.child.name]) expect((await findEverywhere(value)).map(({ table, column, row }) => `${table}.${column} ${JSON.stringify(row).slice(0, 600)}`), value).toEqual([])
    // The grandparent's number, given for a camp-line place, is theirs: its consent and messages stay.
    expect((await findEverywhere(mine.guestPhone)).map(({ table, column }) => `${table}.${column}`).sort()).toEqual(['outbox_messages.to', 'whatsapp_consents.phone'])
    // The family's tag is in every value of theirs: their location, the cousin on the waitlist, the addresses.
    expect((await findEverywhere('zarinaquddus')).map(({ table, column }) => `${table}.${column}`)).toEqual(['outbox_messages.to'])
    const byAddress = await findEverywhere(mine.holder.email)
    expect(byAddress.map(({ table, column }) => `${table}.${column}`)).toEqual(['outbox_messages.to'])
    expect(byAddress[0]!.row).toMatchObject({ subject: 'Your account at Swimming Sport Science Lab has been deleted' })
    expect(String(byAddress[0]!.row.text)).toContain(mine.own.reference)

    // The other family's WhatsApp consents and messages stay.
    expect([await isOptedIn(theirs.holder.phone), await isOptedIn(theirs.guestPhone)]).toEqual([true, true])
    expect((await findEverywhere(theirs.holder.phone)).map(({ table, column }) => `${table}.${column}`)).toEqual(expect.arrayContaining(['whatsapp_consents.phone', 'outbox_messages.to']))

    // Invoices stay, readable, without the person.
    expect(await db().select().from(users).where(eq(users.id, mine.holder.userId!))).toEqual([])
    // A session's receipt keeps its placeholder name; a camp place no longer belongs to an account, so
    // its receipt is billed, as a guest's is, to the (erased) address alone.
    for (const [orderId, name] of [[mine.own.orderId, 'Erased'], [mine.camp.orderId, null]] as const) {
      const receipt = await receiptOf(orderId)
      expect(receipt!.document.receiptNumber).toMatch(/\d/)
      expect(receipt!.document.customer.name).toBe(name)
      expect(receipt!.document.customer.email).toMatch(/^erased-[0-9a-f]+@invalid$/)
    }
    expect((await bookingRow(mine.own.bookingId)).status).toBe('cancelled')
    expect(await refundOf(mine.own.orderId)).toMatchObject({ amountPaise: (await bookingRow(mine.own.bookingId)).amountPaise })
    expect(await refundOf(mine.camp.orderId)).not.toBeNull()
    // Report files are gone from storage; audit entries keep what happened, the person's values replaced by an opaque id.
    expect(await readdir(path.join(directory, String(mine.own.bookingId)))).toEqual([])
    const [note] = await db().select().from(auditLog).where(eq(auditLog.action, 'customer.note')).orderBy(auditLog.id).limit(1)
    expect(note).toMatchObject({ summary: 'Called {customer} ({email}) on {phone} about {swimmer}', actorEmail: 'staff@lab.example' })
    expect(note!.personal).toEqual({ customer: erased!.marker, email: erased!.marker, phone: erased!.marker, swimmer: erased!.marker })

    // The other family is untouched.
    expect((await findEverywhere(theirs.holder.name)).length).toBeGreaterThan(5)
    expect((await bookingRow(theirs.own.bookingId)).customerEmail).toBe(theirs.holder.email)
    expect(await readdir(path.join(directory, String(theirs.own.bookingId)))).toHaveLength(1)
  })

  it('happens once when two erasures of the account run at once', async () => {
    const [holder] = await createCustomers(1, 'twicegone')
    const farewell = ({ email }: { email: string }) => accountErasedEmail({ to: email, cancelled: [] })
    const results = await Promise.all([eraseAccount(holder!.userId!, { reason: 'x', farewell }), eraseAccount(holder!.userId!, { reason: 'x', farewell })])
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await db().select().from(outboxMessages).where(eq(outboxMessages.to, holder!.email))).toHaveLength(1)
  })
})

describe('erasing one swimmer', () => {
  it("removes the swimmer's name everywhere and keeps the account holder's data", async () => {
    await setWindows(DATES.map((date) => ({ date, capacity: 4 })))
    const mine = await family('zarinaquddus', '9000011111', '09:00')
    await eraseSwimmer(mine.holder.userId!, mine.child.id, { reason: 'Deleted by the account holder.' })
    expect(await findEverywhere(mine.child.name)).toEqual([])
    expect((await bookingRow(mine.forChild.bookingId)).status).toBe('cancelled')
    expect(await refundOf(mine.forChild.orderId)).not.toBeNull()
    expect(await refundOf(mine.own.orderId)).toBeNull()
    expect((await bookingRow(mine.forChild.bookingId)).swimmerName).toBe('Erased')
    expect((await bookingRow(mine.own.bookingId)).status).toBe('confirmed')
    expect((await accountDataOf(mine.holder.userId!))!.swimmers.map((swimmer) => swimmer.name)).toEqual([mine.holder.name])
    // The account's place in an analysis day's line for the swimmer (chosen by id) goes too.
    expect(await findEverywhere('zarinaquddus swims 50 m')).toEqual([])
  })

  it("refuses the account holder's own profile and another account's swimmer", async () => {
    const [one, two] = await createCustomers(2, 'guarded')
    await expect(eraseSwimmer(one!.userId!, one!.swimmerId!, { reason: 'x' })).rejects.toMatchObject({ kind: 'not_found' })
    await expect(eraseSwimmer(one!.userId!, two!.swimmerId!, { reason: 'x' })).rejects.toMatchObject({ kind: 'not_found' })
  })
})

describe('the list of what erasure handles', () => {
  it('names every text column of every table, so a new column with a name or address cannot be forgotten', async () => {
    const { rows } = await db().execute<{ table_name: string; column_name: string }>(
      sql`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND data_type IN ('text', 'jsonb', 'character varying', 'json')`,
    )
    const unhandled = rows
      .filter(({ table_name: table, column_name: column }) => !ERASURE_HANDLED_COLUMNS[table]?.includes(column) && !APART_FROM_ACCOUNTS_COLUMNS[table]?.includes(column))
      .filter(({ table_name: table, column_name: column }) => {
        const known = NOT_PERSONAL_COLUMNS[table]
        return !(known === '*' || known?.includes(column))
      })
      .map(({ table_name: table, column_name: column }) => `${table}.${column}`)
    expect(unhandled).toEqual([])
  })
})
