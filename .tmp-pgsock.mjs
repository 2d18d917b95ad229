import pg from 'pg'
const url = process.argv[2]
const pool = new pg.Pool({ connectionString: url, max: 20 })
await Promise.all(Array.from({length: 20}, () => pool.query('select 1')))
const cpu0 = process.cpuUsage(); const t0 = performance.now()
let n = 0
await Promise.all(Array.from({ length: 40 }, async () => { for (let i = 0; i < 500; i++) { await pool.query('select $1::int', [i]); n++ } }))
const c = process.cpuUsage(cpu0)
console.log(url, n, 'queries', (performance.now() - t0).toFixed(0), 'ms wall', ((c.user + c.system) / n).toFixed(1), 'µs CPU/query', (c.system / n).toFixed(1), 'sys')
await pool.end()
