// The camp rush: two instances of the site on one PostgreSQL; N parents (default 2,000) submit the
// registration form within seconds for the camps' seats (2 camps × 2 batches, default 30 each).
// Parents turned away join the waitlist and keep their place through the link e-mailed to them
// (read from the local mailbox's outbox), as a parent does: they open the page and press its button.
// Parents holding a seat confirm the total their summary shows, then pay through the sandbox gateway.
// In a rush the site may answer a submission at once with the parent's place in line: the parent
// then opens that page (pressing its button each second, as without JavaScript) until their turn
// has come. "submit" is the answer to the form; "outcome" the time until the parent knew whether
// they have a seat to pay for or the batch is full.
// Prints held, confirmed, waitlisted (and confirmed waitlist places), oversold (must be 0), 5xx
// (must be 0) and latency.
// --busy-core keeps one core busy during the run, as on a shared server with other work.
// --profile writes a CPU profile of each site instance to a fresh directory under /tmp and samples
// what the database's sessions wait on during the rush.
// Usage: npm run bench:camp-rush [-- --parents 2000 --capacity 30 --busy-core --profile]
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { ensureBuild } from './ensure-build.mjs'
import { busyCore, cpuMeter, freshDatabase, options, percentile, startInstance, timed } from './bench-support.mjs'

const { parents, capacity, 'busy-core': withBusyCore, profile } = options({ parents: 2000, capacity: 30, 'busy-core': false, profile: false })
ensureBuild()
const database = await freshDatabase('swimlab_bench_camps')
const instances = []
let gatewayInstance
let stopBusyCore
let failed = false
const profileDir = profile ? mkdtempSync(path.join(tmpdir(), 'camp-rush-profile-')) : null
try {
  // The payment gateway is another company's server: here a third instance serves the sandbox
  // gateway, so the rush on the site does not slow the gateway down.
  gatewayInstance = await startInstance(database.url)
  const gateway = gatewayInstance
  // Behind a proxy, as in production: each parent has their own address for the rate limits.
  const siteEnv = { TRUST_PROXY: 'true', SANDBOX_GATEWAY_URL: `${gateway.url}/sandbox-gateway`, ...(profileDir && { NODE_OPTIONS: `--require ${path.resolve('scripts/cpu-profile.cjs')}`, CPU_PROF_DIR: profileDir }) }
  instances.push(await startInstance(database.url, siteEnv), await startInstance(database.url, siteEnv))
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  await client.query('UPDATE camp_batches SET capacity = $1', [capacity])
  const seats = Number((await client.query('SELECT sum(capacity)::int AS seats FROM camp_batches')).rows[0].seats)
  const choices = (await client.query('SELECT c.code AS camp, b.code AS batch FROM camp_batches b JOIN camps c ON c.id = b.camp_id ORDER BY c.code, b.code')).rows

  // A name is letters only (the form refuses digits in a name): 1 → A, 27 → AA.
  const lettersFor = (number) => {
    let letters = ''
    for (let rest = number; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters
    return letters
  }
  const networkOf = (index) => `10.${Math.floor(index / 65536) % 256}.${Math.floor(index / 256) % 256}.${index % 256}`
  const submit = (index, intent) => {
    const { url } = instances[index % 2]
    const choice = choices[index % choices.length]
    return timed(`${url}/onboarding`, {
      method: 'POST',
      headers: { Origin: url, 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': networkOf(index) },
      body: new URLSearchParams({ name: `Swimmer ${lettersFor(index + 1)}`, email: `parent${index}@example.com`, phone_number: '9845012345', guardianDeclaration: 'on', camp: choice.camp, batch: choice.batch, intent, website_url: '' }),
    })
  }

  if (withBusyCore) stopBusyCore = busyCore()
  const sampling = profile ? sampleWaits(database.url) : null
  // A parent answered with their place in line (303) opens that page, and presses its button every
  // second until their turn has come (the page then sends them to pay, or answers "full").
  const untilTurn = async (submitted) => {
    if (submitted.status !== 303) return { ...submitted, outcomeMs: submitted.ms }
    const page = new URL(submitted.location, instances[submitted.index % 2].url).toString()
    let outcome = await timed(page, {})
    let pages = 1
    while (outcome.status === 200) {
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      outcome = await timed(page, {})
      pages += 1
    }
    return { ...outcome, index: submitted.index, ms: submitted.ms, outcomeMs: performance.now() - submitted.startedAt, inLine: true, pages }
  }
  const cpu = await cpuMeter(client, instances)
  const started = performance.now()
  const attempts = await Promise.all(
    Array.from({ length: parents }, (_, index) => {
      const startedAt = performance.now()
      return submit(index, 'register').then((result) => untilTurn({ ...result, index, startedAt }))
    }),
  )
  const rushMs = performance.now() - started
  const rushCpu = await cpu()
  if (sampling) console.log('Database sessions during the rush (average):', await sampling.stop())
  if (profile) console.log(`The rush ran from ${Math.round(performance.timeOrigin + started)} to ${Math.round(performance.timeOrigin + started + rushMs)} (wall clock, ms)`)
  const held = attempts.filter((attempt) => attempt.status === 302 && attempt.location?.includes('/onboarding/offer?'))
  const full = attempts.filter((attempt) => attempt.status === 409)
  const waitlisted = await Promise.all(full.map((attempt) => submit(attempt.index, 'waitlist')))
  const links = (await client.query(`SELECT substring(text FROM 'http\\S+/onboarding/waitlist\\?\\S+') AS link FROM outbox_messages WHERE subject LIKE 'Please confirm your waitlist place%'`)).rows.map((row) => row.link)
  const keptPlaces = await Promise.all(
    links.map(async (link) => {
      const opened = await timed(link, {})
      if (opened.status !== 200) return opened
      return timed(link, { method: 'POST', headers: { Origin: new URL(link).origin, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'website_url=' })
    }),
  )

  // Holders confirm the total their seat's summary shows (the registration's stored price), then pay on the gateway's page.
  const pay = async (attempt) => {
    const summary = new URL(attempt.location, instances[attempt.index % 2].url)
    const quoted = (await client.query('SELECT amount_paise FROM camp_registrations WHERE reference = $1', [summary.searchParams.get('registration')])).rows[0].amount_paise
    const confirmed = await timed(summary.toString(), { method: 'POST', headers: { Origin: summary.origin, 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': networkOf(attempt.index) }, body: new URLSearchParams({ quotedTotal: String(quoted), website_url: '' }) })
    if (confirmed.status !== 302 || !confirmed.location) return confirmed
    return timed(confirmed.location, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'outcome=success' })
  }
  const paid = await Promise.all(held.map(pay))
  let confirmed = 0
  for (let round = 0; round < 60; round += 1) {
    confirmed = Number((await client.query(`SELECT count(*)::int AS n FROM camp_registrations WHERE status = 'confirmed'`)).rows[0].n)
    if (confirmed >= held.length) break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const perBatch = await client.query(
    `SELECT c.code || '/' || b.code AS batch, b.capacity, count(r.id) FILTER (WHERE r.status IN ('pending', 'confirmed'))::int AS taken,
            (SELECT count(*)::int FROM camp_waitlist w WHERE w.batch_id = b.id AND w.confirmed_at IS NOT NULL) AS waiting
     FROM camp_batches b JOIN camps c ON c.id = b.camp_id LEFT JOIN camp_registrations r ON r.batch_id = b.id
     GROUP BY c.code, b.code, b.capacity, b.id ORDER BY 1`,
  )
  await client.end()

  await stopBusyCoreOnce()
  const all = [...attempts, ...waitlisted, ...keptPlaces, ...paid]
  const serverErrors = all.filter((result) => result.status === 0 || result.status >= 500).length
  const latencies = attempts.map((attempt) => attempt.ms).sort((a, b) => a - b)
  const outcomes = attempts.map((attempt) => attempt.outcomeMs).sort((a, b) => a - b)
  const inLine = attempts.filter((attempt) => attempt.inLine)
  const oversold = perBatch.rows.reduce((sum, row) => sum + Math.max(0, row.taken - row.capacity), 0)
  console.table([
    {
      instances: 2,
      parents,
      seats,
      'held (got a seat)': held.length,
      'turned away (full)': full.length,
      waitlisted: waitlisted.filter((result) => result.status === 200).length,
      'kept (confirmed) places': keptPlaces.filter((result) => result.status === 302).length,
      'confirmed (paid)': confirmed,
      oversold,
      '5xx': serverErrors,
      'busy core': withBusyCore,
      'rush wall ms': Math.round(rushMs),
      'submit p50 ms': Math.round(percentile(latencies, 50)),
      'submit p99 ms': Math.round(percentile(latencies, 99)),
      'answered in line': inLine.length,
      'outcome p50 ms': Math.round(percentile(outcomes, 50)),
      'outcome p99 ms': Math.round(percentile(outcomes, 99)),
    },
  ])
  const errorsByPhase = Object.entries({ submit: attempts, 'join waitlist': waitlisted, 'keep place': keptPlaces, pay: paid })
    .map(([phase, results]) => [phase, results.filter((result) => result.status === 0 || result.status >= 500).length])
    .filter(([, count]) => count > 0)
  if (errorsByPhase.length) console.log('5xx by step:', Object.fromEntries(errorsByPhase))
  console.log(`Submit p99: ${Math.round(percentile(latencies, 99))} ms${withBusyCore ? ' (one core busy)' : ''}; every parent knew their outcome (a seat to pay for, or full) within ${Math.round(percentile(outcomes, 99))} ms (p99)`)
  if (rushCpu) console.log(`CPU during the rush, per parent: site ${(rushCpu.site / parents).toFixed(2)} ms, PostgreSQL ${(rushCpu.database / parents).toFixed(2)} ms, the parents' client ${(rushCpu.client / parents).toFixed(2)} ms`)
  if (inLine.length) console.log(`Answered with their place in line: ${inLine.length}; their pages opened ${inLine.reduce((sum, attempt) => sum + attempt.pages, 0)} times in all`)
  console.log('Per batch (taken/capacity, waiting):', perBatch.rows.map((row) => `${row.batch} ${row.taken}/${row.capacity}, ${row.waiting} waiting`).join('; '))
  const other = attempts.filter((attempt) => !(attempt.status === 302 || attempt.status === 409))
  if (other.length) console.log('Other answers:', Object.entries(other.reduce((counts, attempt) => ({ ...counts, [attempt.status]: (counts[attempt.status] ?? 0) + 1 }), {})))
  const unkept = waitlisted.filter((result) => result.status === 200).length - keptPlaces.filter((result) => result.status === 302).length
  failed = oversold > 0 || serverErrors > 0 || held.length !== seats || confirmed !== seats || unkept !== 0
  if (serverErrors > 0) for (const instance of instances) console.log(`Last lines of an instance's log:\n${instance.output().split('\n').filter((line) => !line.startsWith('    at ')).slice(0, 12).join('\n')}`)
  console.log(failed ? 'FAILED: oversold, 5xx, unsold or unconfirmed seats, or waitlist places not kept (see above).' : 'OK: every seat sold exactly once, every waitlist place kept, no server errors.')
} finally {
  await stopBusyCoreOnce()
  for (const instance of instances) await instance.stop()
  await gatewayInstance?.stop()
  await database.drop()
  if (profileDir) console.log(`CPU profiles of the site instances: ${profileDir} `)
}
process.exit(failed ? 1 : 0)

/** Stops the busy core (once: a second kill would wait for an exit that has already happened). */
async function stopBusyCoreOnce() {
  const stop = stopBusyCore
  stopBusyCore = undefined
  await stop?.()
}

/** Samples, every 50 ms, what the database's sessions are doing: running, idle, or waiting on a lock. */
function sampleWaits(url) {
  const client = new pg.Client({ connectionString: url })
  const counts = new Map()
  let samples = 0
  let running = true
  const done = (async () => {
    await client.connect()
    while (running) {
      const { rows } = await client.query(
        `SELECT coalesce(wait_event_type || ':' || wait_event, state) AS what, count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() GROUP BY 1`,
      )
      samples += 1
      for (const row of rows) counts.set(row.what, (counts.get(row.what) ?? 0) + row.n)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await client.end()
  })()
  return {
    async stop() {
      running = false
      await done
      return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).map(([what, n]) => [what, `${(n / samples).toFixed(1)} sessions`]))
    },
  }
}
