import { describe, expect, it } from 'vitest'
import { PUBLIC_PAGES } from '~/web/public-pages'
import { addDays, labToday } from '~/lib/lab-time'
import { DESKTOP, useBrowser } from '../support/browser'
import { useTestSite } from '../support/site'

// The issues Chrome's DevTools report for a page (a CSP violation, a form field without a label, a
// cookie it will reject…), which Lighthouse counts against best practices. Every page has none.

const browser = useBrowser()
const site = useTestSite()

async function issuesOn(paths: string[], cookie?: string) {
  const context = await browser.context(site.url, DESKTOP)
  if (cookie) {
    const [name, value] = cookie.split('=') as [string, string]
    await context.addCookies([{ name, value, url: site.url }])
  }
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  const issues: string[] = []
  let current = ''
  cdp.on('Audits.issueAdded', ({ issue }) => issues.push(`${current}: ${issue.code} ${JSON.stringify(issue.details).slice(0, 300)}`))
  await cdp.send('Audits.enable')
  for (const path of paths) {
    current = path
    await page.goto(path)
    await page.waitForLoadState('networkidle')
    expect(new URL(page.url()).pathname, path).toBe(path.split('?')[0])
  }
  await context.close()
  return issues
}

describe('browser-reported issues', () => {
  it('none on the public pages and the forms customers fill in', async () => {
    const paths = [...PUBLIC_PAGES.map((page) => page.path), '/login', '/registration', '/forgot-password', '/booking', '/onboarding']
    expect(await issuesOn(paths)).toEqual([])
  })

  it('none on the signed-in booking screens', async () => {
    const visitor = await site.customer('Issue Finder', 'issues@example.com')
    const cookie = [...visitor.cookies].map(([name, value]) => `${name}=${value}`).find((pair) => pair.startsWith('swimlab_session='))!
    expect(await issuesOn(['/book-slot', `/book-slot?date=${addDays(labToday(), 3)}`, '/my-bookings'], cookie)).toEqual([])
  })
})
