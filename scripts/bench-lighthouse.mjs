// Lighthouse (mobile emulation, simulated slow 4G) on every public page of a freshly started site.
// Prints the four category scores per page and the JavaScript each page sends.
// Usage: npm run bench:lighthouse [-- /path /other-path]
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { ensureBuild } from './ensure-build.mjs'

const PAGES = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['/', '/about', '/services', '/how-it-works', '/pricing', '/contact', '/terms', '/privacy-policy', '/refund']

ensureBuild()
const dataDir = mkdtempSync(path.join(tmpdir(), 'swimlab-lighthouse-'))
const server = spawn(process.execPath, ['server.js'], {
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
  stdio: ['ignore', 'pipe', 'inherit'],
})
const port = await new Promise((resolve, reject) => {
  let output = ''
  server.stdout.on('data', (chunk) => {
    output += chunk
    const match = /"port":(\d+)/.exec(output)
    if (match) resolve(Number(match[1]))
  })
  server.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
})
const base = `http://127.0.0.1:${port}`

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
})

const rows = []
try {
  for (const pagePath of PAGES) {
    const result = await lighthouse(`${base}${pagePath}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    })
    const { categories, audits, runtimeError, runWarnings } = result.lhr
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
  }
} finally {
  await chrome.kill()
  server.kill('SIGTERM')
  await new Promise((resolve) => server.once('exit', resolve))
  rmSync(dataDir, { recursive: true, force: true })
}

console.table(rows)
const below = rows.filter((row) => row.performance < 95 || row.accessibility < 100 || row['best-practices'] < 100 || row.seo < 100)
console.log(below.length === 0 ? 'All pages meet the budget (performance ≥ 95; accessibility, best practices, SEO 100).' : `Below budget: ${below.map((row) => row.page).join(', ')}`)
