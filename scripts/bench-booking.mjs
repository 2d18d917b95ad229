// The booking race: two instances of the site on one PostgreSQL, N signed-in customers asking for
// the same 3-day session at once (M seats), half through each instance; the winners then pay
// through the sandbox gateway. Prints attempts, seats held and sold, oversold (must be 0), errors
// and latency. Usage: npm run bench:booking [-- --customers 400 --seats 20 --busy-core]
// --busy-core keeps one core spinning for the whole run, as a shared machine has other work.
// BENCH_CPU_PROF=<dir> writes a CPU profile of each instance there.
import pg from 'pg'
import { ensureBuild } from './ensure-build.mjs'
import { busyCore, cpuMeter, freshDatabase, labDate, options, percentile, profiling, signedInCustomers, startInstance, timed } from './bench-support.mjs'

const { customers, seats, 'busy-core': keepCoreBusy } = options({ customers: 400, seats: 20, 'busy-core': false })
ensureBuild()
const database = await freshDatabase('swimlab_bench_booking')
const instances = []
let failed = false
let stopBusyCore = null
try {
  // Each customer comes from a network of their own, as real customers do (one network holds at most
  // three unpaid seats).
  const siteEnv = { TRUST_PROXY: 'true', ...profiling() }
  const networkOf = (index) => `10.${Math.floor(index / 65536) % 256}.${Math.floor(index / 256) % 256}.${index % 256}`
  instances.push(await startInstance(database.url, siteEnv), await startInstance(database.url, siteEnv))
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  const dates = [labDate(30), labDate(31), labDate(32)]
  await client.query('DELETE FROM availability_windows')
  await client.query(`INSERT INTO availability_windows (date, start_time, end_time, slot_duration_minutes, capacity) SELECT d::date, '09:00', '10:00', 60, $2 FROM unnest($1::text[]) AS d`, [dates, seats])
  const cookies = await signedInCustomers(client, customers)
  // A live site's tables have planner statistics; a thousand rows written a moment ago have none yet,
  // and without them every sign-in lookup would read the whole users table.
  await client.query('ANALYZE')
  await servedBefore(client)

  if (keepCoreBusy) stopBusyCore = busyCore()
  const cpu = await cpuMeter(client, instances)
  // Everyone asks at once.
  const started = performance.now()
  const holds = await Promise.all(
    cookies.map((cookie, index) => {
      const { url } = instances[index % 2]
      return timed(`${url}/book-slot`, {
        method: 'POST',
        headers: { Cookie: cookie, Origin: url, 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': networkOf(index) },
        body: new URLSearchParams({ date: dates[0], time: '09:00', website_url: '' }),
      }).then((result) => ({ ...result, cookie, url, network: networkOf(index) }))
    }),
  )
  const raceMs = performance.now() - started
  const raceCpu = await cpu()
  const winners = holds.filter((hold) => hold.status === 302 && hold.location?.startsWith('/slot-payment?booking='))
  const refused = holds.filter((hold) => hold.status === 302 && hold.location?.startsWith('/book-slot'))
  const errors = holds.filter((hold) => hold.status === 0 || hold.status >= 500)

  // The winners pay: our server creates the order at the gateway, the customer pays on its page.
  const paid = await Promise.all(
    winners.map(async ({ cookie, url, location, network }) => {
      const pay = await timed(`${url}${location}`, { method: 'POST', headers: { Cookie: cookie, Origin: url, 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': network }, body: 'website_url=' })
      if (pay.status !== 302 || !pay.location) return { ...pay, ok: false }
      const checkout = await timed(pay.location, { method: 'POST', headers: { Origin: url, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'outcome=success' })
      return { ...pay, ok: checkout.status === 303 }
    }),
  )
  // Confirmation arrives by webhook (or reconciliation); give it a few seconds.
  let confirmed = 0
  for (let attempt = 0; attempt < 40; attempt += 1) {
    confirmed = Number((await client.query(`SELECT count(*) FROM bookings WHERE status = 'confirmed'`)).rows[0].count)
    if (confirmed >= winners.length) break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const perDay = await client.query(
    `SELECT d.date::text AS date, count(*)::int AS taken FROM booking_days d JOIN bookings b ON b.id = d.booking_id WHERE b.status IN ('pending', 'confirmed') GROUP BY d.date ORDER BY d.date`,
  )
  await client.end()
  await stopBusy()

  const latencies = holds.map((hold) => hold.ms).sort((a, b) => a - b)
  const payLatencies = paid.map((payment) => payment.ms).sort((a, b) => a - b)
  const oversold = Math.max(0, ...perDay.rows.map((row) => row.taken - seats))
  console.table([
    {
      instances: 2,
      'busy core': keepCoreBusy ? 'yes' : 'no',
      attempts: customers,
      seats,
      'held (won the race)': winners.length,
      refused: refused.length,
      'sold (paid and confirmed)': confirmed,
      oversold,
      errors: errors.length,
      'race wall ms': Math.round(raceMs),
      'hold p50 ms': Math.round(percentile(latencies, 50)),
      'hold p99 ms': Math.round(percentile(latencies, 99)),
      'pay p50 ms': Math.round(percentile(payLatencies, 50)),
      'pay p99 ms': Math.round(percentile(payLatencies, 99)),
    },
  ])
  console.log(`Hold p99 (goal ≤ 1,500 ms): ${Math.round(percentile(latencies, 99))} ms`)
  if (raceCpu) console.log(`CPU during the race, per attempt: site ${perAttempt(raceCpu.site)} ms, PostgreSQL ${perAttempt(raceCpu.database)} ms, the customers' client ${perAttempt(raceCpu.client)} ms`)
  console.log('Seats taken per session day:', perDay.rows.map((row) => `${row.date} ${row.taken}/${seats}`).join(', '))
  failed = oversold > 0 || errors.length > 0 || winners.length !== seats || confirmed !== seats
  console.log(failed ? 'FAILED: oversold, errors, unsold seats or unconfirmed payments (see above).' : 'OK: every seat sold exactly once, no errors.')
} finally {
  await stopBusy()
  for (const instance of instances) await instance.stop()
  await database.drop()
}
process.exit(failed ? 1 : 0)

/**
 * A live site has served the calendar and holds before a session opens: its code is compiled and
 * optimised and its database connections are open. Regular customers open the calendar and ask for
 * a session a week later (one wins, the others are refused), through both instances, and the
 * bookings they made are removed before the race.
 */
async function servedBefore(client) {
  const later = [labDate(37), labDate(38), labDate(39)]
  await client.query(`INSERT INTO availability_windows (date, start_time, end_time, slot_duration_minutes, capacity) SELECT d::date, '10:00', '11:00', 60, 1 FROM unnest($1::text[]) AS d`, [later])
  const regulars = await signedInCustomers(client, 40, 'regular')
  for (let round = 0; round < 10; round += 1) {
    await Promise.all(
      regulars.map(async (cookie, index) => {
        const { url } = instances[index % 2]
        const headers = { Cookie: cookie, 'X-Forwarded-For': `10.250.${round}.${index}` }
        await timed(`${url}/book-slot?date=${later[0]}`, { headers })
        await timed(`${url}/book-slot`, { method: 'POST', headers: { ...headers, Origin: url, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ date: later[0], time: '10:00', website_url: '' }) })
      }),
    )
  }
  await client.query('DELETE FROM booking_days; DELETE FROM bookings; DELETE FROM rate_limit_buckets')
}

function perAttempt(ms) {
  return (ms / customers).toFixed(2)
}

/** Stops the busy core once: a process already killed by a signal would never report its exit again. */
async function stopBusy() {
  const stop = stopBusyCore
  stopBusyCore = null
  await stop?.()
}

