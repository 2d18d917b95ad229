// Lighthouse (mobile emulation, simulated slow 4G) on every public page, the booking screens and a
// family's analysis, on a freshly started site that the bench first fills through its own pages as
// the lab will (phone photos of the team, testimonials, partners; an analysis with its figures,
// bands and a clip, published to the family and as the public sample: scripts/bench-site-content.mjs).
// Prints per page the four category scores, LCP, TBT, CLS, the JavaScript it sends and the images it
// loaded (bytes and formats), and checks the budgets: performance ≥ 98, the other three 100, LCP ≤
// 2000 ms, TBT ≤ 100 ms, CLS 0, home page JS ≤ 100 KB, and every photo served as AVIF. Exits 1 when
// one is missed, saying which.
// Usage: npm run bench:lighthouse [-- [--empty] /path /other-path]
// --empty: the site as a fresh start shows it, without the lab's content (no sample, no analysis).
// /analyses/:id stands for the family's analysis the bench publishes.
// With LIGHTHOUSE_JSON_DIR set, each page's full report is written there as JSON, to see where
// the bytes and the main thread's time go (bootup-time, unused-javascript, network-requests).
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { ensureBuild } from './ensure-build.mjs'
import { labDate, signUpThroughPages, siteAddress } from './bench-support.mjs'
import { fillSite, STAFF } from './bench-site-content.mjs'

const args = process.argv.slice(2)
const EMPTY = args.includes('--empty')
/** The family's analysis, whose id is known once the bench has published it. */
const ANALYSIS = '/analyses/:id'
const PUBLIC = ['/', '/about', '/services', '/how-it-works', '/pricing', '/contact', '/terms', '/privacy-policy', '/refund', ...(EMPTY ? [] : ['/sample-analysis'])]
// The screens a customer books on: signing in and up, the single-session booking, camp registration,
// and (signed in) the 3-day booking calendar with a day chosen, and My Bookings.
const BOOKING = ['/login', '/registration', '/booking', '/onboarding', `/book-slot?date=${labDate(3)}`, '/my-bookings']
const SIGNED_IN = new Set(['/book-slot', '/my-bookings', '/analyses'])
const NOINDEX = new Set(['/login', '/registration', '/booking', '/onboarding', '/book-slot', '/my-bookings', '/analyses'])
const chosen = args.filter((arg) => !arg.startsWith('--'))
const PAGES = chosen.length > 0 ? chosen : [...PUBLIC, ...BOOKING, ...(EMPTY ? [] : [ANALYSIS])]
if (EMPTY && PAGES.includes(ANALYSIS)) throw new Error(`${ANALYSIS} needs the filled site (without --empty)`)
const PERFORMANCE_BUDGET = 98
const HOME_JS_BUDGET_KB = 100
const LCP_BUDGET_MS = 2000
const TBT_BUDGET_MS = 100
/** The one format photos may come in: images of other types (SVG drawings aside) are a budget missed. */
const PHOTO_FORMAT = 'image/avif'

/** The first part of a path ("/analyses/12" → "/analyses"), which the sets above name. */
const section = (pagePath) => `/${pagePath.split('?')[0].split('/')[1]}`

ensureBuild()
const dataDir = mkdtempSync(path.join(tmpdir(), 'swimlab-lighthouse-'))
const address = await siteAddress()
const server = spawn(process.execPath, ['server.js'], {
  env: { ...process.env, ...address.env, DATA_DIR: dataDir, LOG_LEVEL: 'info', ADMIN_EMAIL: STAFF.email, ADMIN_PASSWORD: STAFF.password },
  stdio: ['ignore', 'pipe', 'inherit'],
})
let output = ''
server.stdout.on('data', (chunk) => (output += chunk))
const port = await new Promise((resolve, reject) => {
  const timer = setInterval(() => {
    const match = /"port":(\d+)[^\n]*"msg":"listening"/.exec(output)
    if (match) {
      clearInterval(timer)
      resolve(Number(match[1]))
    }
  }, 100)
  server.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
})
const base = `http://127.0.0.1:${port}`
const rows = []
let chrome
try {
  const started = Date.now()
  const content = EMPTY ? null : await fillSite(base, () => output)
  if (content) console.log(`Filled the site through its pages in ${((Date.now() - started) / 1000).toFixed(0)} s; the family's analysis is ${content.analysisPath}.`)
  const pages = PAGES.map((page) => (page === ANALYSIS ? content.analysisPath : page))
  const cookie = content?.familyCookie ?? (pages.some((page) => SIGNED_IN.has(section(page))) ? await signUpThroughPages(base, () => output) : null)

  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })

  for (const pagePath of pages) {
    const privatePage = NOINDEX.has(section(pagePath))
    const audit = () => lighthouse(`${base}${pagePath}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      ...(SIGNED_IN.has(section(pagePath)) ? { extraHeaders: { Cookie: cookie } } : {}),
      // Account and booking screens are kept out of search engines on purpose (noindex).
      ...(privatePage ? { skipAudits: ['is-crawlable'] } : {}),
    })
    let result = await audit()
    // Chrome occasionally fails to record the trace of a load; once more is enough.
    if (result.lhr.runtimeError?.code === 'NO_NAVSTART') result = await audit()
    if (result.lhr.finalDisplayedUrl.includes('/login') && !pagePath.startsWith('/login')) throw new Error(`${pagePath}: sent to sign in (${result.lhr.finalDisplayedUrl})`)
    const { categories, audits, runtimeError, runWarnings } = result.lhr
    if (process.env.LIGHTHOUSE_JSON_DIR) {
      mkdirSync(process.env.LIGHTHOUSE_JSON_DIR, { recursive: true })
      writeFileSync(path.join(process.env.LIGHTHOUSE_JSON_DIR, `${pagePath.replace(/\?.*/, '').replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'}.json`), result.report)
    }
    if (runtimeError) throw new Error(`${pagePath}: ${runtimeError.code} ${runtimeError.message}`)
    for (const warning of runWarnings) console.log(`${pagePath}: ${warning}`)
    const requests = audits['network-requests']?.details?.items ?? []
    const kbOf = (items) => items.reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024
    const scriptKb = kbOf(requests.filter((item) => item.resourceType === 'Script'))
    // The images fetched over the network (a placeholder written into the page as a data: URL is not).
    const images = requests.filter((item) => item.resourceType === 'Image' && !item.url.startsWith('data:'))
    const formats = [...new Set(images.map((item) => item.mimeType))]
    rows.push({
      page: pagePath,
      performance: Math.round(categories.performance.score * 100),
      accessibility: Math.round(categories.accessibility.score * 100),
      'best-practices': Math.round(categories['best-practices'].score * 100),
      seo: Math.round(categories.seo.score * 100),
      'LCP ms': Math.round(audits['largest-contentful-paint'].numericValue),
      'TBT ms': Math.round(audits['total-blocking-time'].numericValue),
      CLS: Number((audits['cumulative-layout-shift'].numericValue ?? 0).toFixed(3)),
      'JS KB (compressed)': Number(scriptKb.toFixed(1)),
      'images KB': Number(kbOf(images).toFixed(1)),
      'image formats': formats.map((type) => type.replace('image/', '')).join(' ') || '-',
      notPhotoFormat: images.filter((item) => item.mimeType !== PHOTO_FORMAT && item.mimeType !== 'image/svg+xml').map((item) => `${new URL(item.url).pathname} (${item.mimeType})`),
      lcpElement: audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? null,
    })
    const failing = Object.values(audits).filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode === 'binary')
    if (failing.length > 0) console.log(`${pagePath}: failing audits: ${failing.map((audit) => audit.id).join(', ')}`)
    for (const item of audits['inspector-issues']?.details?.items ?? []) console.log(`${pagePath}: browser issue: ${item.issueType} ${JSON.stringify(item.subItems?.items ?? []).slice(0, 300)}`)
  }
} finally {
  await chrome?.kill()
  server.stdout.removeAllListeners('data')
  server.stdout.resume()
  server.kill('SIGTERM')
  await new Promise((resolve) => server.once('exit', resolve))
  rmSync(dataDir, { recursive: true, force: true })
}

console.table(rows.map(({ notPhotoFormat, lcpElement, ...row }) => row))
for (const row of rows) if (row.lcpElement) console.log(`${row.page}: LCP element ${row.lcpElement.slice(0, 200)}`)
const missed = rows.flatMap((row) => {
  const misses = [
    row.performance < PERFORMANCE_BUDGET && `performance ${row.performance} < ${PERFORMANCE_BUDGET}`,
    ...['accessibility', 'best-practices', 'seo'].map((category) => row[category] < 100 && `${category} ${row[category]} < 100`),
    row['LCP ms'] > LCP_BUDGET_MS && `LCP ${row['LCP ms']} ms > ${LCP_BUDGET_MS} ms`,
    row['TBT ms'] > TBT_BUDGET_MS && `TBT ${row['TBT ms']} ms > ${TBT_BUDGET_MS} ms`,
    row.CLS > 0 && `CLS ${row.CLS} > 0`,
    row.page === '/' && row['JS KB (compressed)'] > HOME_JS_BUDGET_KB && `JavaScript ${row['JS KB (compressed)']} KB > ${HOME_JS_BUDGET_KB} KB compressed`,
    row.notPhotoFormat.length > 0 && `images not ${PHOTO_FORMAT}: ${row.notPhotoFormat.join(', ')}`,
  ].filter(Boolean)
  return misses.map((miss) => `${row.page}: ${miss}`)
})
const home = rows.find((row) => row.page === '/')
if (home) console.log(`Home page JavaScript: ${home['JS KB (compressed)']} KB compressed (budget ${HOME_JS_BUDGET_KB} KB).`)
if (missed.length === 0) {
  console.log(`All pages meet the budgets (performance ≥ ${PERFORMANCE_BUDGET}; accessibility, best practices, SEO 100; LCP ≤ ${LCP_BUDGET_MS} ms; TBT ≤ ${TBT_BUDGET_MS} ms; CLS 0; home page JS ≤ ${HOME_JS_BUDGET_KB} KB; photos as ${PHOTO_FORMAT}).`)
} else {
  console.log(`Budgets missed:\n${missed.map((miss) => `  ${miss}`).join('\n')}`)
  process.exitCode = 1
}
