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
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from './client.server'
import * as schema from './schema'
import { availabilityWindows, bookingDays, closedTimeSlots } from './schema'

type Journal = { entries: Array<{ idx: number; tag: string }> }

const MIGRATIONS = path.resolve('drizzle')
const journal: Journal = JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8'))
const RENAMING = journal.entries.findIndex((entry) => entry.tag === '0012_availability_windows')

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
    const client = new PGlite()
    const db = drizzlePglite(client, { schema })
    return { db: db as unknown as Db, migrate: (folder: string) => migratePglite(db, { migrationsFolder: folder }), close: () => client.close() }
  }
  const admin = new URL(process.env.DATABASE_URL)
  const name = `migration_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`
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
      await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
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
