// Lighthouse (mobile emulation, simulated slow 4G) on every public page and the booking screens of
// a freshly started site. Prints the four category scores per page, the JavaScript each page sends,
// and whether the budgets are met: performance ≥ 98, the other three 100, home page JS ≤ 100 KB.
// Usage: npm run bench:lighthouse [-- /path /other-path]
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

const PUBLIC = ['/', '/about', '/services', '/how-it-works', '/pricing', '/contact', '/terms', '/privacy-policy', '/refund']
// The screens a customer books on: signing in and up, the single-session booking, camp registration,
// and (signed in) the 3-day booking calendar with a day chosen, and My Bookings.
const BOOKING = ['/login', '/registration', '/booking', '/onboarding', `/book-slot?date=${labDate(3)}`, '/my-bookings']
const SIGNED_IN = new Set(['/book-slot', '/my-bookings'])
const NOINDEX = new Set(['/login', '/registration', '/booking', '/onboarding', '/book-slot', '/my-bookings'])
const PAGES = process.argv.slice(2).length > 0 ? process.argv.slice(2) : [...PUBLIC, ...BOOKING]
const PERFORMANCE_BUDGET = 98
const HOME_JS_BUDGET_KB = 100

ensureBuild()
const dataDir = mkdtempSync(path.join(tmpdir(), 'swimlab-lighthouse-'))
const address = await siteAddress()
const server = spawn(process.execPath, ['server.js'], {
  env: { ...process.env, ...address.env, DATA_DIR: dataDir, LOG_LEVEL: 'info' },
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
const cookie = PAGES.some((page) => SIGNED_IN.has(page.split('?')[0])) ? await signUpThroughPages(base, () => output) : null

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
})

const rows = []
try {
  for (const pagePath of PAGES) {
    const privatePage = NOINDEX.has(pagePath.split('?')[0])
    const audit = () => lighthouse(`${base}${pagePath}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      ...(SIGNED_IN.has(pagePath.split('?')[0]) ? { extraHeaders: { Cookie: cookie } } : {}),
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
    const scripts = (audits['network-requests']?.details?.items ?? []).filter((item) => item.resourceType === 'Script')
    const scriptKb = scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024
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
    })
    const failing = Object.values(audits).filter((audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode === 'binary')
    if (failing.length > 0) console.log(`${pagePath}: failing audits: ${failing.map((audit) => audit.id).join(', ')}`)
    for (const item of audits['inspector-issues']?.details?.items ?? []) console.log(`${pagePath}: browser issue: ${item.issueType} ${JSON.stringify(item.subItems?.items ?? []).slice(0, 300)}`)
  }
} finally {
  await chrome.kill()
  server.stdout.removeAllListeners('data')
  server.stdout.resume()
  server.kill('SIGTERM')
  await new Promise((resolve) => server.once('exit', resolve))
  rmSync(dataDir, { recursive: true, force: true })
}

console.table(rows)
const below = rows.filter((row) => row.performance < PERFORMANCE_BUDGET || row.accessibility < 100 || row['best-practices'] < 100 || row.seo < 100)
console.log(below.length === 0 ? `All pages meet the budget (performance ≥ ${PERFORMANCE_BUDGET}; accessibility, best practices, SEO 100).` : `Below budget: ${below.map((row) => row.page).join(', ')}`)
const home = rows.find((row) => row.page === '/')
if (home) console.log(`Home page JavaScript: ${home['JS KB (compressed)']} KB compressed (budget ${HOME_JS_BUDGET_KB} KB): ${home['JS KB (compressed)'] <= HOME_JS_BUDGET_KB ? 'within' : 'OVER'} budget.`)
if (below.length > 0 || (home && home['JS KB (compressed)'] > HOME_JS_BUDGET_KB)) process.exitCode = 1
