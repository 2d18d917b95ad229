// The camp rush: two instances of the site on one PostgreSQL; N parents (default 2,000) submit the
// registration form within seconds for the camps' seats (2 camps × 2 batches, default 30 each).
// Parents turned away join the waitlist and keep their place through the link e-mailed to them
// (read from the local mailbox's outbox), as a parent does: they open the page and press its button.
// Parents holding a seat pay through the sandbox gateway.
// Prints held, confirmed, waitlisted (and confirmed waitlist places), oversold (must be 0), 5xx
// (must be 0) and latency.
// Usage: npm run bench:camp-rush [-- --parents 2000 --capacity 30]
import pg from 'pg'
import { ensureBuild } from './ensure-build.mjs'
import { freshDatabase, options, percentile, startInstance, timed } from './bench-support.mjs'

const { parents, capacity } = options({ parents: 2000, capacity: 30 })
ensureBuild()
const database = await freshDatabase('swimlab_bench_camps')
const instances = []
let gatewayInstance
let failed = false
try {
  // The payment gateway is another company's server: here a third instance serves the sandbox
  // gateway, so the rush on the site does not slow the gateway down.
  gatewayInstance = await startInstance(database.url)
  const gateway = gatewayInstance
  // Behind a proxy, as in production: each parent has their own address for the rate limits.
  const siteEnv = { TRUST_PROXY: 'true', SANDBOX_GATEWAY_URL: `${gateway.url}/sandbox-gateway` }
  instances.push(await startInstance(database.url, siteEnv), await startInstance(database.url, siteEnv))
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  await client.query('UPDATE camp_batches SET capacity = $1', [capacity])
  const seats = Number((await client.query('SELECT sum(capacity)::int AS seats FROM camp_batches')).rows[0].seats)
  const choices = (await client.query('SELECT c.code AS camp, b.code AS batch FROM camp_batches b JOIN camps c ON c.id = b.camp_id ORDER BY c.code, b.code')).rows

  const submit = (index, intent) => {
    const { url } = instances[index % 2]
    const choice = choices[index % choices.length]
    return timed(`${url}/onboarding`, {
      method: 'POST',
      headers: { Origin: url, 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': `10.${Math.floor(index / 65536) % 256}.${Math.floor(index / 256) % 256}.${index % 256}` },
      body: new URLSearchParams({ name: `Swimmer ${index}`, email: `parent${index}@example.com`, phone_number: '9845012345', camp: choice.camp, batch: choice.batch, intent, website_url: '' }),
    })
  }

  const started = performance.now()
  const attempts = await Promise.all(Array.from({ length: parents }, (_, index) => submit(index, 'register').then((result) => ({ ...result, index }))))
  const rushMs = performance.now() - started
  const held = attempts.filter((attempt) => attempt.status === 302 && attempt.location?.includes('/sandbox-gateway/checkout/'))
  const full = attempts.filter((attempt) => attempt.status === 409)
  const waitlisted = await Promise.all(full.map((attempt) => submit(attempt.index, 'waitlist')))
  const links = (await client.query(`SELECT substring(text FROM 'http\\S+/onboarding/waitlist\\?\\S+') AS link FROM outbox_emails WHERE subject LIKE 'Please confirm your waitlist place%'`)).rows.map((row) => row.link)
  const keptPlaces = await Promise.all(
    links.map(async (link) => {
      const opened = await timed(link, {})
      if (opened.status !== 200) return opened
      return timed(link, { method: 'POST', headers: { Origin: new URL(link).origin, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'website_url=' })
    }),
  )

  // Holders pay on the gateway's page.
  const paid = await Promise.all(held.map((attempt) => timed(attempt.location, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'outcome=success' })))
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

  const all = [...attempts, ...waitlisted, ...keptPlaces, ...paid]
  const serverErrors = all.filter((result) => result.status === 0 || result.status >= 500).length
  const latencies = attempts.map((attempt) => attempt.ms).sort((a, b) => a - b)
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
      'rush wall ms': Math.round(rushMs),
      'submit p50 ms': Math.round(percentile(latencies, 50)),
      'submit p99 ms': Math.round(percentile(latencies, 99)),
    },
  ])
  console.log('Per batch (taken/capacity, waiting):', perBatch.rows.map((row) => `${row.batch} ${row.taken}/${row.capacity}, ${row.waiting} waiting`).join('; '))
  const other = attempts.filter((attempt) => !(attempt.status === 302 || attempt.status === 409))
  if (other.length) console.log('Other answers:', Object.entries(other.reduce((counts, attempt) => ({ ...counts, [attempt.status]: (counts[attempt.status] ?? 0) + 1 }), {})))
  const unkept = waitlisted.filter((result) => result.status === 200).length - keptPlaces.filter((result) => result.status === 302).length
  failed = oversold > 0 || serverErrors > 0 || held.length !== seats || confirmed !== seats || unkept !== 0
  console.log(failed ? 'FAILED: oversold, 5xx, unsold or unconfirmed seats, or waitlist places not kept (see above).' : 'OK: every seat sold exactly once, every waitlist place kept, no server errors.')
} finally {
  for (const instance of instances) await instance.stop()
  await gatewayInstance?.stop()
  await database.drop()
}
process.exit(failed ? 1 : 0)
