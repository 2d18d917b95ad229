// The release of an analysis day: two instances of the site on one PostgreSQL; N parents (default
// 1,000) have the day's page open, its form filled in, when booking opens to everyone, and all submit
// it at that moment for its slots (default 24: one rig, 09:00-17:00 in 20-minute slots). Each parent chooses one
// of the slots their page shows available. In the rush the site answers with the parent's place in
// line, whose page they keep open (pressing its button, as without JavaScript) until it shows their
// outcome; a parent told that slot was taken meanwhile chooses again from the slots the answer shows,
// until they hold a seat (and pay: the site sends them to the gateway) or the day is full ("Every slot
// of this day is taken.", on the day's page the site sends them to, which offers its waitlist).
// "submit" is each answer to a form (the day's, a place's choice of another slot, its Pay button; with
// the day's page, when sent back to it); "outcome" the time until the parent knew whether they have a
// seat (a place's page, waiting for its turn, is part of the outcome).
// Prints held, full, oversold (must be 0), 5xx (must be 0), parents without an answer (must be 0),
// parents told full without the waitlist offered (must be 0) and
// latency (goal: submit p99 ≤ 2 s).
// --busy-core keeps one core busy during the run, as on a shared server with other work.
// BENCH_CPU_PROF=<dir> writes a CPU profile of each site instance there.
// Usage: npm run bench:release [-- --parents 1000 --busy-core]
import pg from 'pg'
import { ensureBuild } from './ensure-build.mjs'
import { busyCore, cpuMeter, freshDatabase, labDate, options, percentile, profiling, startInstance, timed } from './bench-support.mjs'

const { parents, 'busy-core': withBusyCore } = options({ parents: 1000, 'busy-core': false })
const FULL = 'Every slot of this day is taken.'
/** What a parent told "full" is offered instead: a place in line for a slot that frees up. */
const WAITLIST = 'Join the waitlist'
ensureBuild()
const database = await freshDatabase('swimlab_bench_release')
const instances = []
let gatewayInstance
let stopBusyCore = null
let failed = false
let client = null
try {
  // The payment gateway is another company's server: a third instance serves the sandbox gateway.
  gatewayInstance = await startInstance(database.url)
  const siteEnv = { TRUST_PROXY: 'true', SANDBOX_GATEWAY_URL: `${gatewayInstance.url}/sandbox-gateway`, ...profiling() }
  instances.push(await startInstance(database.url, siteEnv), await startInstance(database.url, siteEnv))
  client = new pg.Client({ connectionString: database.url })
  await client.connect()
  const date = labDate(10)
  const venueId = (
    await client.query(
      `INSERT INTO venues (name, address, city, state_code, map_url, host_name, travel_minutes) VALUES ('Balewadi Aquatics', 'Shree Shiv Chhatrapati Sports Complex, Balewadi', 'Pune', '27', 'https://maps.example/balewadi', 'Pune Swim Club', 60) RETURNING id`,
    )
  ).rows[0].id
  // Published with its release in the future: the parents open its page while it still says when booking opens.
  const dayId = await analysisDay(client, venueId, date, { slotMinutes: 20, releaseIn: '1 hour' })
  // 09:00 to 17:00 in 20-minute slots, one rig.
  const seats = (8 * 60) / 20
  await client.query('ANALYZE')
  await servedBefore(client, venueId, date)

  const networkOf = (index) => `10.${Math.floor(index / 65536) % 256}.${Math.floor(index / 256) % 256}.${index % 256}`
  const base = (index) => instances[index % 2].url
  const page = (index) => `${base(index)}/analysis-days/${dayId}`
  // The pages open before the release say when it opens.
  const before = await Promise.all(Array.from({ length: parents }, (_, index) => timed(page(index), { headers: { 'X-Forwarded-For': networkOf(index) }, keepBody: true })))
  const beforeErrors = before.filter((answer) => answer.status === 0 || answer.status >= 500).length
  // Booking opens to everyone now: each parent reloads the page and submits at once.
  await client.query(`UPDATE analysis_days SET release_at = now() WHERE id = $1`, [dayId])

  if (withBusyCore) stopBusyCore = busyCore()
  const cpu = await cpuMeter(client, instances)
  const started = performance.now()
  const outcomes = await Promise.all(Array.from({ length: parents }, (_, index) => parent(index, before[index])))
  const rushMs = performance.now() - started
  const rushCpu = await cpu()
  await stopBusy()

  const perSlot = await client.query(
    `SELECT d.start_time::text AS start, count(*)::int AS taken FROM booking_days d JOIN availability_windows w ON w.id = d.window_id JOIN bookings b ON b.id = d.booking_id
     WHERE w.analysis_day_id = $1 AND (b.status = 'confirmed' OR (b.status = 'pending' AND b.hold_expires_at > now())) GROUP BY d.start_time ORDER BY d.start_time`,
    [dayId],
  )
  await client.end()
  client = null
  const held = outcomes.filter((outcome) => outcome.result === 'seat')
  const full = outcomes.filter((outcome) => outcome.result === 'full')
  const unanswered = outcomes.filter((outcome) => outcome.result === 'unknown')
  const withoutWaitlist = full.filter((outcome) => !outcome.waitlist).length
  const submits = outcomes.flatMap((outcome) => outcome.submits)
  const serverErrors = submits.filter((submit) => submit.status === 0 || submit.status >= 500).length
  const oversold = perSlot.rows.filter((row) => row.taken > 1).length
  const sold = perSlot.rows.reduce((sum, row) => sum + row.taken, 0)
  const latencies = submits.map((submit) => submit.ms).sort((a, b) => a - b)
  const knew = outcomes.map((outcome) => outcome.outcomeMs).sort((a, b) => a - b)
  console.table([
    {
      instances: 2,
      'busy core': withBusyCore ? 'yes' : 'no',
      parents,
      seats,
      'held a seat': held.length,
      'told full': full.length,
      'no answer': unanswered.length,
      'full, no waitlist': withoutWaitlist,
      'seats sold': sold,
      oversold,
      '5xx': serverErrors + beforeErrors,
      submits: submits.length,
      'rush wall ms': Math.round(rushMs),
      'submit p50 ms': Math.round(percentile(latencies, 50)),
      'submit p99 ms': Math.round(percentile(latencies, 99)),
      'outcome p99 ms': Math.round(percentile(knew, 99)),
    },
  ])
  console.log(`Submit p99 (goal ≤ 2,000 ms): ${Math.round(percentile(latencies, 99))} ms${withBusyCore ? ' (one core busy)' : ''}; every parent knew their outcome within ${Math.round(percentile(knew, 99))} ms (p99)`)
  if (rushCpu) console.log(`CPU during the rush, per parent: site ${(rushCpu.site / parents).toFixed(2)} ms, PostgreSQL ${(rushCpu.database / parents).toFixed(2)} ms, the parents' client ${(rushCpu.client / parents).toFixed(2)} ms`)
  console.log('Answers by status (a refusal sent back to the page counts as that page, 200):', JSON.stringify(submits.reduce((counts, submit) => ({ ...counts, [submit.status]: (counts[submit.status] ?? 0) + 1 }), {})))
  for (const status of [...new Set(submits.map((submit) => submit.status))]) {
    const times = submits.filter((submit) => submit.status === status).map((submit) => submit.ms).sort((a, b) => a - b)
    console.log(`  ${status}: ${times.length} answers, p50 ${Math.round(percentile(times, 50))} ms, p99 ${Math.round(percentile(times, 99))} ms, max ${Math.round(times.at(-1))} ms`)
  }
  const other = submits.filter((submit) => ![200, 302, 303, 409].includes(submit.status))
  if (other.length) console.log('Other answers:', Object.entries(other.reduce((counts, submit) => ({ ...counts, [submit.status]: (counts[submit.status] ?? 0) + 1 }), {})))
  failed = oversold > 0 || serverErrors + beforeErrors > 0 || unanswered.length > 0 || withoutWaitlist > 0 || held.length !== seats || sold !== seats
  if (serverErrors > 0) for (const instance of instances) console.log(`Last lines of an instance's log:\n${instance.output().split('\n').filter((line) => !line.startsWith('    at ')).slice(-12).join('\n')}`)
  console.log(failed ? 'FAILED: oversold, 5xx, unsold seats, parents left without an answer or told full without the waitlist (see above).' : 'OK: every slot sold exactly once, every parent told a seat or full with the waitlist, no server errors.')

  /**
   * One parent: their page, opened before the release with the form filled in, sent at the release for
   * a slot it shows available. The answer is the outcome itself (the gateway, the form back saying the
   * slot was taken, the day's page saying it is full) or, in the rush, their place in line, whose page
   * they keep open until it shows the outcome: a seat to pay for (they pay), the day full, or their
   * slot taken, when they choose again from the slots it shows (another submission), until they hold a
   * seat or the day is full.
   */
  async function parent(index, opened) {
    const headers = { 'X-Forwarded-For': networkOf(index) }
    const begun = performance.now()
    const submits = []
    const done = (result, extra = {}) => ({ result, submits, outcomeMs: performance.now() - begun, ...extra })
    let shown = opened
    // Where the parent's form goes: the day's page, or the page of their place whose slot was taken.
    let formUrl = page(index)
    for (let attempt = 0; attempt < 30; attempt += 1) {
      if (shown.text?.includes(FULL)) return done('full', { waitlist: shown.text.includes(WAITLIST) })
      const free = availableSlots(shown.text ?? '')
      if (free.length === 0) return done(shown.status === 200 || shown.status === 409 ? 'full' : 'unknown', { waitlist: shown.text?.includes(WAITLIST) })
      const slot = free[Math.floor(Math.random() * free.length)]
      const fields = formUrl === page(index) ? { name: `Parent ${lettersFor(index + 1)}`, email: `parent${index}@example.com`, phone: '9845012345', whoSwims: 'myself', slot, intent: 'book', website_url: '' } : { slot, intent: 'book', website_url: '' }
      const sent = await post(formUrl, fields, headers, index)
      // Sent back to the day's page (sold out): the answer is that page, as the browser follows it.
      const answer = sent.status === 303 && sent.location === new URL(page(index)).pathname ? await followed(sent, headers, index) : sent
      submits.push(answer)
      if (answer.status === 303 && answer.location?.startsWith('/analysis-days/line?')) {
        const outcome = await inLine(`${base(index)}${answer.location}`, headers, index, submits)
        if (outcome.result) return done(outcome.result, outcome)
        shown = outcome.shown
        formUrl = outcome.url
        continue
      }
      if (answer.status >= 300 && answer.status < 400 && answer.location) return done('seat')
      if (answer.status !== 409 && answer.status !== 200) return done('unknown')
      shown = answer
      formUrl = page(index)
    }
    return done('unknown')
  }

  /**
   * A parent's place in line: its page, asked again (as its button does) until it shows the outcome.
   * A seat is paid for (the site sends them to the gateway); the day full is the day's page with its
   * waitlist; a slot taken is the page with the slots to choose from, returned to choose again.
   */
  async function inLine(url, headers, index, submits) {
    for (let look = 0; look < 60; look += 1) {
      const shown = await timed(url, { headers, keepBody: true })
      if (shown.status === 302 || shown.status === 303) {
        const day = await timed(`${base(index)}${shown.location}`, { headers, keepBody: true })
        return day.text?.includes(FULL) ? { result: 'full', waitlist: day.text.includes(WAITLIST) } : { shown: day, url: page(index) }
      }
      if (shown.status !== 200) return { result: 'unknown' }
      if (shown.text.includes('A slot is held for you')) {
        // Pressing Pay is sending a form too: its answer (the gateway) counts as one.
        const paid = await post(url, { intent: 'pay', website_url: '' }, headers, index)
        submits.push(paid)
        return { result: paid.status === 302 && paid.location ? 'seat' : 'unknown' }
      }
      if (shown.text.includes('Choose another slot')) return { shown, url }
      if (!shown.text.includes('You are in line')) return { result: 'unknown' }
    }
    return { result: 'unknown' }
  }

  function post(url, fields, headers, index) {
    return timed(url, {
      method: 'POST',
      headers: { ...headers, Origin: base(index), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
      keepBody: true,
    })
  }

  /** The page a refused submission was sent back to, its time counted in the submission's. */
  async function followed(sent, headers, index) {
    const shown = await timed(`${base(index)}${sent.location}`, { headers, keepBody: true })
    return { ...shown, ms: sent.ms + shown.ms }
  }
} finally {
  await stopBusy()
  await client?.end().catch(() => {})
  for (const instance of instances) await instance.stop()
  await gatewayInstance?.stop()
  await database.drop()
}
process.exit(failed ? 1 : 0)

/** The slots a page offers: its radio buttons named "slot" that are not disabled. */
function availableSlots(html) {
  const slots = []
  for (const [input] of html.matchAll(/<input\b[^>]*\bname="slot"[^>]*>/g)) {
    if (/\sdisabled(=|\s|>|\/)/.test(input)) continue
    const value = /\bvalue="([^"]+)"/.exec(input)?.[1]
    if (value) slots.push(value.replaceAll('&#x7C;', '|').replaceAll('&#124;', '|'))
  }
  return slots
}

/** A name is letters only (the form refuses digits in a name): 1 → A, 27 → AA. */
function lettersFor(number) {
  let letters = ''
  for (let rest = number; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters
  return letters
}

/**
 * A published analysis day at the venue on `date`, 09:00-17:00 with one rig, its one window, released
 * after `releaseIn` (an interval). The kit and a staff member there are what publishing asks of staff;
 * here the day is written as published directly.
 */
async function analysisDay(client, venueId, date, { slotMinutes, releaseIn }) {
  const { id } = (
    await client.query(
      `INSERT INTO analysis_days (venue_id, product_code, first_date, last_date, start_time, end_time, slot_minutes, rigs, price_paise, what_to_bring, host_seats, release_at, published_at)
       VALUES ($1, 'race_analysis', $2, $2, '09:00', '17:00', $3, 1, 150000, 'Racing suit, cap and goggles', 0, now() + $4::interval, now()) RETURNING id`,
      [venueId, date, slotMinutes, releaseIn],
    )
  ).rows[0]
  await client.query(`INSERT INTO availability_windows (venue_id, date, start_time, end_time, slot_duration_minutes, capacity, analysis_day_id) VALUES ($1, $2, '09:00', '17:00', $3, 1, $4)`, [venueId, date, slotMinutes, id])
  return id
}

/**
 * A live site has served analysis days before one opens: its code is compiled and optimised and its
 * database connections are open. Families book another day a week later through both instances (a
 * hundred slots of five minutes), and those bookings are removed before the release.
 */
async function servedBefore(client, venueId, date) {
  const later = new Date(`${date}T00:00:00Z`)
  later.setUTCDate(later.getUTCDate() + 7)
  const warmDay = await analysisDay(client, venueId, later.toISOString().slice(0, 10), { slotMinutes: 5, releaseIn: '-1 minute' })
  for (let round = 0; round < 5; round += 1) {
    await Promise.all(
      Array.from({ length: 40 }, async (_, index) => {
        const base = instances[index % 2].url
        const headers = { 'X-Forwarded-For': `10.250.${round}.${index}` }
        const shown = await timed(`${base}/analysis-days/${warmDay}`, { headers, keepBody: true })
        const free = availableSlots(shown.text ?? '')
        if (free.length === 0) return
        await timed(`${base}/analysis-days/${warmDay}`, {
          method: 'POST',
          headers: { ...headers, Origin: base, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ name: `Regular ${lettersFor(round * 40 + index + 1)}`, email: `regular${round}.${index}@example.com`, whoSwims: 'myself', slot: free[index % free.length], intent: 'book', website_url: '' }),
        })
      }),
    )
  }
  await client.query('DELETE FROM payment_events; DELETE FROM payments; DELETE FROM booking_days; DELETE FROM bookings; DELETE FROM rate_limit_buckets; DELETE FROM sandbox_gateway_orders')
  await client.query(`UPDATE analysis_days SET closed_at = now() WHERE id = $1`, [warmDay])
}

/** Stops the busy core once. */
async function stopBusy() {
  const stop = stopBusyCore
  stopBusyCore = null
  await stop?.()
}

