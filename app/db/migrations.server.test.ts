import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { asc, eq, sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { testDatabasePrefix } from '../../tests/support/global-setup'
import { PGLITE_OPTIONS, type Db } from './client.server'
import * as schema from './schema'
import { availabilityWindows, bookingDays, bookings, closedTimeSlots, payments, receipts, receiptSequences, swimmers, users } from './schema'

type Journal = { entries: Array<{ idx: number; tag: string }> }

const MIGRATIONS = path.resolve('drizzle')
const journal: Journal = JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8'))
const RENAMING = journal.entries.findIndex((entry) => entry.tag === '0012_availability_windows')
const FAMILIES = journal.entries.findIndex((entry) => entry.tag === '0013_families')
const WHATSAPP = journal.entries.findIndex((entry) => entry.tag === '0018_whatsapp')
const TAX_BY_PLACE = journal.entries.findIndex((entry) => entry.tag === '0036_tax_by_place')

/** The committed migrations up to (not including) entry `end`, as a folder of their own. */
function migrationsBefore(end: number, dir: string) {
  mkdirSync(path.join(dir, 'meta'), { recursive: true })
  const entries = journal.entries.slice(0, end)
  for (const entry of entries) copyFileSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`))
  writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }))
  return dir
}

/** A fresh database (PostgreSQL when DATABASE_URL is set, PGlite otherwise) migrated from `folder`. */
async function freshDatabase() {
  if (!process.env.DATABASE_URL) {
    const client = new PGlite(PGLITE_OPTIONS)
    const db = drizzlePglite(client, { schema })
    return { db: db as unknown as Db, migrate: (folder: string) => migratePglite(db, { migrationsFolder: folder }), close: () => client.close() }
  }
  const admin = new URL(process.env.DATABASE_URL)
  const name = `${testDatabasePrefix(inject('runId'))}migration_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin.toString() })
    await client.connect()
    await client.query(statement).finally(() => client.end())
  }
  await run(`CREATE DATABASE ${name}`)
  const target = new URL(admin)
  target.pathname = `/${name}`
  const pool = new pg.Pool({ connectionString: target.toString(), max: 2 })
  const db: Db = drizzlePg(pool, { schema })
  return {
    db,
    migrate: (folder: string) => migratePg(db, { migrationsFolder: folder }),
    close: async () => {
      await pool.end()
      // Not waited for: DROP DATABASE waits for a checkpoint, which can outlast a hook on a busy disk;
      // the run's clean-up drops what is left by its prefix.
      void run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {})
    },
  }
}

describe('renaming slots to availability windows', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'swimlab-migrations-'))
  let database: Awaited<ReturnType<typeof freshDatabase>>

  beforeAll(async () => {
    database = await freshDatabase()
    await database.migrate(migrationsBefore(RENAMING, dir))
    // Windows, a closed time slot and a booked seat as an installation had them before the rename.
    for (const statement of [
      `INSERT INTO slots (id, date, start_time, end_time, slot_duration_minutes, capacity, is_holiday) VALUES (7, '2030-03-04', '09:00', '12:00', 60, 2, false), (9, '2030-03-05', NULL, NULL, NULL, 1, true)`,
      `SELECT setval('slots_id_seq', 9)`,
      `INSERT INTO closed_time_slots (slot_id, start_time) VALUES (7, '10:00')`,
      `INSERT INTO catalogue_items (code, name, price_paise) VALUES ('migration_test', 'Session', 150000)`,
      `INSERT INTO bookings (id, reference, product_code, customer_name, customer_email, start_time, end_time, amount_paise, status) VALUES (3, 'SL-MIGRATE', 'migration_test', 'Asha Rao', 'asha@example.com', '09:00', '10:00', 150000, 'confirmed')`,
      `INSERT INTO booking_days (booking_id, day_number, slot_id, date, start_time, end_time) VALUES (3, 1, 7, '2030-03-04', '09:00', '10:00')`,
    ])
      await database.db.execute(sql.raw(statement))
    await database.migrate(MIGRATIONS)
  })
  afterAll(async () => {
    await database?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('keeps every window, closed time slot and booked seat, pointing at the same window', async () => {
    const { db } = database
    expect(await db.select().from(availabilityWindows).orderBy(asc(availabilityWindows.id))).toMatchObject([
      { id: 7, date: '2030-03-04', startTime: '09:00:00', endTime: '12:00:00', slotDurationMinutes: 60, capacity: 2, isHoliday: false },
      { id: 9, date: '2030-03-05', startTime: null, endTime: null, slotDurationMinutes: null, capacity: 1, isHoliday: true },
    ])
    expect(await db.select({ windowId: closedTimeSlots.windowId, startTime: closedTimeSlots.startTime }).from(closedTimeSlots)).toEqual([{ windowId: 7, startTime: '10:00:00' }])
    expect(await db.select({ bookingId: bookingDays.bookingId, windowId: bookingDays.windowId }).from(bookingDays)).toEqual([{ bookingId: 3, windowId: 7 }])
  })

  it('numbers new windows after the old ones, and keeps the checks and the references', async () => {
    const { db } = database
    const [added] = await db.insert(availabilityWindows).values({ date: '2030-03-06', startTime: '09:00', endTime: '10:00' }).returning({ id: availabilityWindows.id })
    expect(added!.id).toBe(10)
    await expect(db.insert(availabilityWindows).values({ date: '2030-03-07', capacity: 0 })).rejects.toThrow()
    // A booked window cannot be removed; removing an unbooked one takes its closed time slots with it.
    await expect(db.delete(availabilityWindows).where(eq(availabilityWindows.id, 7))).rejects.toThrow()
    await db.insert(closedTimeSlots).values({ windowId: added!.id, startTime: '09:00' })
    await db.delete(availabilityWindows).where(eq(availabilityWindows.id, added!.id))
    expect(await db.select().from(closedTimeSlots).where(eq(closedTimeSlots.windowId, added!.id))).toEqual([])
  })

  it('leaves no index, constraint, sequence or trigger named after slots', async () => {
    const names = await database.db.execute<{ name: string }>(sql`
      SELECT relname AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace
      UNION ALL SELECT conname FROM pg_constraint WHERE connamespace = 'public'::regnamespace
      UNION ALL SELECT tgname FROM pg_trigger WHERE NOT tgisinternal`)
    const all = names.rows.map((row) => row.name)
    expect(all).toEqual(expect.arrayContaining(['availability_windows_id_seq', 'availability_windows_pkey', 'availability_windows_changed', 'booking_days_window_id_availability_windows_id_fk']))
    expect(all.filter((name) => /slots_|slot_id/.test(name.replace('closed_time_slots_', '')))).toEqual([])
  })
})

describe('every customer becoming an account with one swimmer', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'swimlab-migrations-'))
  let database: Awaited<ReturnType<typeof freshDatabase>>
  const totals = (db: Db) =>
    db.execute<{ bookings: number; booked: number; payments: number; paid: number; receipts: number }>(sql`
      SELECT (SELECT count(*)::int FROM bookings) AS bookings, (SELECT coalesce(sum(amount_paise), 0)::int FROM bookings) AS booked,
             (SELECT count(*)::int FROM payments) AS payments, (SELECT coalesce(sum(amount_paise), 0)::int FROM payments) AS paid,
             (SELECT count(*)::int FROM receipts) AS receipts`)
  let before: Awaited<ReturnType<typeof totals>>['rows'][number]

  beforeAll(async () => {
    database = await freshDatabase()
    await database.migrate(migrationsBefore(FAMILIES, dir))
    // Two customers with the swimmer fields on their account (one registered on 31 December evening
    // UTC, already 1 January in Bangalore), a staff member, and bookings of theirs and a guest's, paid.
    for (const statement of [
      `INSERT INTO users (id, name, email, password_hash, phone, dob, gender, swimming_experience, current_location, academy_name, coach_name, specialization, other_specialization, participate_in_events, stroke_best_time, how_did_you_know, other_source, is_verified, created_at)
       VALUES (1, 'Asha Rao', 'asha@example.com', 'x', '9845012345', '2011-01-01', 'female', 'advanced', 'Bengaluru', 'Basavanagudi Aquatic Centre', 'NA', 'other', 'Open water', true, '01:02.45', 'other', 'A poster', true, '2026-06-01T06:00:00Z'),
              (2, 'Ravi Kumar', 'ravi@example.com', 'x', '9845000000', '1990-01-01', 'male', 'beginner', 'Mysuru', 'NA', 'Coach K', 'freestyle', NULL, false, NULL, 'google', NULL, true, '2026-12-31T20:00:00Z'),
              (3, 'Staff', 'staff@lab.example', 'x', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, true, '2026-01-01T00:00:00Z')`,
      `UPDATE users SET is_admin = true WHERE id = 3`,
      `SELECT setval('users_id_seq', 3)`,
      `INSERT INTO catalogue_items (code, name, price_paise) VALUES ('migration_test', 'Session', 150000)`,
      `INSERT INTO bookings (id, reference, product_code, user_id, customer_name, customer_email, start_time, end_time, amount_paise, status) VALUES
        (1, 'SWP-0000000001', 'migration_test', 1, 'Asha Rao', 'asha@example.com', '09:00', '10:00', 150000, 'confirmed'),
        (2, 'SWP-0000000002', 'migration_test', 1, 'Asha Rao', 'asha@example.com', '10:00', '11:00', 150000, 'cancelled'),
        (3, 'SWP-0000000003', 'migration_test', 2, 'Ravi Kumar', 'ravi@example.com', '09:00', '10:00', 120000, 'confirmed'),
        (4, 'SWP-0000000004', 'migration_test', NULL, 'Kavya Nair', 'kavya@example.com', '11:00', '12:00', 90000, 'refunded')`,
      `INSERT INTO payments (order_id, booking_id, gateway, amount_paise, state, expires_at) VALUES ('SLOT_1', 1, 'sandbox', 150000, 'completed', now()), ('SLOT_3', 3, 'sandbox', 120000, 'completed', now())`,
      `INSERT INTO receipts (payment_id, number, financial_year, sequence, issued_at) SELECT id, 'SSL/2026-27/' || id, 2026, id, now() FROM payments`,
    ])
      await database.db.execute(sql.raw(statement))
    before = (await totals(database.db)).rows[0]!
    await database.migrate(MIGRATIONS)
  })
  afterAll(async () => {
    await database?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('gives each customer one swimmer profile from their own fields, with the age as it was given; staff get none', async () => {
    const { db } = database
    expect(await db.select().from(swimmers).orderBy(asc(swimmers.accountId))).toMatchObject([
      { accountId: 1, isAccountHolder: true, name: 'Asha Rao', ageYears: 15, ageGivenOn: '2026-06-01', birthDate: null, gender: 'female', swimmingExperience: 'advanced', academyName: 'Basavanagudi Aquatic Centre', coachName: 'NA', specialization: 'other', otherSpecialization: 'Open water', participateInEvents: true, strokeBestTime: '01:02.45', howDidYouKnow: 'other', otherSource: 'A poster' },
      { accountId: 2, isAccountHolder: true, name: 'Ravi Kumar', ageYears: 37, ageGivenOn: '2027-01-01', gender: 'male', swimmingExperience: 'beginner', coachName: 'Coach K', participateInEvents: false },
    ])
    expect(await db.select({ id: users.id, phone: users.phone, currentLocation: users.currentLocation }).from(users).orderBy(asc(users.id))).toEqual([
      // Numbers are kept in E.164 since the WhatsApp migration.
      { id: 1, phone: '+919845012345', currentLocation: 'Bengaluru' },
      { id: 2, phone: '+919845000000', currentLocation: 'Mysuru' },
      { id: 3, phone: null, currentLocation: null },
    ])
  })

  it("gives every booking its swimmer, and changes no booking, payment or receipt", async () => {
    const { db } = database
    const profiles = new Map((await db.select({ id: swimmers.id, accountId: swimmers.accountId }).from(swimmers)).map((row) => [row.accountId, row.id]))
    expect(await db.select({ id: bookings.id, swimmerId: bookings.swimmerId, swimmerName: bookings.swimmerName, status: bookings.status, amountPaise: bookings.amountPaise }).from(bookings).orderBy(asc(bookings.id))).toEqual([
      { id: 1, swimmerId: profiles.get(1), swimmerName: 'Asha Rao', status: 'confirmed', amountPaise: 150000 },
      { id: 2, swimmerId: profiles.get(1), swimmerName: 'Asha Rao', status: 'cancelled', amountPaise: 150000 },
      { id: 3, swimmerId: profiles.get(2), swimmerName: 'Ravi Kumar', status: 'confirmed', amountPaise: 120000 },
      { id: 4, swimmerId: null, swimmerName: 'Kavya Nair', status: 'refunded', amountPaise: 90000 },
    ])
    expect((await totals(db)).rows[0]).toEqual(before)
    expect(await db.select({ bookingId: payments.bookingId, state: payments.state }).from(payments).orderBy(asc(payments.id))).toEqual([
      { bookingId: 1, state: 'completed' },
      { bookingId: 3, state: 'completed' },
    ])
    expect(await db.select({ number: receipts.number }).from(receipts).orderBy(asc(receipts.id))).toHaveLength(2)
  })
})

describe('phone numbers kept in E.164', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'swimlab-migrations-'))
  let database: Awaited<ReturnType<typeof freshDatabase>>
  // As people typed them, and what the migration keeps: the same as toE164 where it is sure, else as typed.
  const TYPED: Array<[typed: string, kept: string]> = [
    ['9845012345', '+919845012345'],
    ['98450 12345', '+919845012345'],
    ['098450-12345', '+919845012345'],
    ['91 98450 12345', '+919845012345'],
    ['+91 98450 12345', '+919845012345'],
    ['+44 7700 900123', '+447700900123'],
    ['+1 (650) 555-0100', '+16505550100'],
    ['12345', '12345'],
    ['98450 1234', '98450 1234'],
  ]

  beforeAll(async () => {
    database = await freshDatabase()
    await database.migrate(migrationsBefore(WHATSAPP, dir))
    for (const [index, [typed]] of TYPED.entries()) {
      await database.db.execute(sql`INSERT INTO users (name, email, password_hash, phone) VALUES ('Parent', ${`parent${index}@example.com`}, 'x', ${typed})`)
    }
    await database.migrate(MIGRATIONS)
  })
  afterAll(async () => {
    await database?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('rewrites the numbers that are plainly a mobile number, and leaves the rest as typed', async () => {
    const kept = await database.db.select({ email: users.email, phone: users.phone }).from(users).orderBy(asc(users.id))
    expect(kept.map((row) => row.phone)).toEqual(TYPED.map(([, stored]) => stored))
  })
})

describe('receipts keeping what they were issued with', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'swimlab-migrations-'))
  let database: Awaited<ReturnType<typeof freshDatabase>>

  beforeAll(async () => {
    database = await freshDatabase()
    await database.migrate(migrationsBefore(TAX_BY_PLACE, dir))
    // An installation with a GSTIN at 18%, its home at the lab in Bengaluru, and two receipts issued.
    for (const statement of [
      `INSERT INTO site_settings (id, report_delivery, refund_policy, session_location, venue_name, postal_address, phone, phone_hours, support_email, info_email, website_url, whatsapp_number, social_links, coach, team, legal_name, gstin, gst_rate_basis_points)
       VALUES (1, 'x', 'x', 'PDCSE pool', 'PDCSE', 'Bengaluru', 'x', 'x', 'x', 'x', 'x', 'x', '{}', '{}', '[]', 'Swim Lab LLP', ' 29AAGCB7383J1Z4 ', 1800)`,
      `INSERT INTO venues (name, address, city, state_code, is_home) VALUES ('PDCSE pool', 'Kanteerava Stadium', 'Bengaluru', '29', true)`,
      `INSERT INTO catalogue_items (code, name, price_paise) VALUES ('migration_test', 'Session', 150000)`,
      `INSERT INTO bookings (id, reference, product_code, swimmer_name, customer_name, customer_email, start_time, end_time, amount_paise, status) VALUES
        (1, 'SWP-0000000001', 'migration_test', 'Asha Rao', 'Asha Rao', 'asha@example.com', '09:00', '10:00', 150000, 'confirmed'),
        (2, 'SWP-0000000002', 'migration_test', 'Ravi Kumar', 'Ravi Kumar', 'ravi@example.com', '10:00', '11:00', 150000, 'confirmed')`,
      `INSERT INTO payments (order_id, booking_id, gateway, amount_paise, state, expires_at) VALUES ('SLOT_1', 1, 'sandbox', 150000, 'completed', now()), ('SLOT_2', 2, 'sandbox', 150000, 'completed', now())`,
      `INSERT INTO receipts (payment_id, number, financial_year, sequence, issued_at) SELECT id, 'SSL/26-27/00000' || id, 2026, id, now() FROM payments`,
      `INSERT INTO receipt_sequences (financial_year, last_number) VALUES (2026, 2)`,
    ])
      await database.db.execute(sql.raw(statement))
    await database.migrate(MIGRATIONS)
  })
  afterAll(async () => {
    await database?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('gives each existing receipt what it shows today: the lab’s GSTIN and rate, CGST and SGST, at its home in Karnataka, in the lab’s series', async () => {
    const rows = await database.db
      .select({ number: receipts.number, sequence: receipts.sequence, series: receipts.series, sellerGstin: receipts.sellerGstin, taxKind: receipts.taxKind, rate: receipts.gstRateBasisPoints, venue: receipts.supplyVenueName, address: receipts.supplyVenueAddress, state: receipts.supplyStateCode })
      .from(receipts)
      .orderBy(asc(receipts.id))
    const issued = { series: '', sellerGstin: '29AAGCB7383J1Z4', taxKind: 'cgst_sgst', rate: 1800, venue: 'PDCSE pool', address: 'Kanteerava Stadium, Bengaluru', state: '29' }
    expect(rows).toEqual([
      { number: 'SSL/26-27/000001', sequence: 1, ...issued },
      { number: 'SSL/26-27/000002', sequence: 2, ...issued },
    ])
    // The lab's numbering goes on where it was.
    expect(await database.db.select().from(receiptSequences)).toEqual([{ series: '', financialYear: 2026, lastNumber: 2 }])
  })
})
