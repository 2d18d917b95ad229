import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { referenceBands, swimmers } from '~/db/schema'
import { DESKTOP, expectNoAxeViolations, expectNoSidewaysScroll, expectReadableText, LAPTOP, PHONE, signInWithForm, useBrowser } from '../support/browser'
import { accountWithSwimmer, analysedSession, clipOf, FAMILY_PASSWORD, figureOn, findingOf } from '../support/family-analyses'
import { useTestSite } from '../support/site'

// A parent reads their child's results in a real browser: My Analyses, an analysis with its figures
// against the last one, a jump to a chapter of a clip, progress over time; shares the results with
// a coach, who opens the link in a browser of their own, until the parent revokes it. Axe at phone
// and desktop sizes on every page. The clips' files come from elsewhere: only what the page does
// with the player is checked, not playback.

const browser = useBrowser()
const PARENT = { name: 'Asha Iyer', email: 'asha.iyer@example.com' }
const ids = { march: 0, september: 0, swimmer: 0, clip: 0, marchClip: 0, sibling: 0 }

const site = useTestSite(
  { SMTP_URL: undefined },
  {
    async prepare(db) {
      const family = await accountWithSwimmer(db, PARENT)
      ids.swimmer = family.swimmerId
      ids.march = (await analysedSession(db, family, '2026-03-02', { metrics: { final_time: 31.2, stroke_rate: 48, stroke_length: 1.8 }, publishedAt: new Date('2026-03-10T06:00:00Z') })).analysisId
      ids.september = (await analysedSession(db, family, '2026-09-07', { metrics: { final_time: 30.8, stroke_rate: 46, stroke_length: 1.8, turn_time: 7.9 }, publishedAt: new Date('2026-09-12T06:00:00Z'), nextAnalysisOn: '2026-12-07', summary: 'A stronger start and a quicker turn.' })).analysisId
      ids.clip = await clipOf(db, ids.september, 'Side view, September', [{ kind: 'start', seconds: 0 }, { kind: 'turn', seconds: 12.5 }, { kind: 'finish', seconds: 24 }])
      ids.marchClip = await clipOf(db, ids.march, 'Side view, March', [{ kind: 'turn', seconds: 11 }])
      await findingOf(db, ids.september, 'Breathing late on the turn', 'Breathe-out drill')
      // A younger sibling with one analysis so far.
      const [sibling] = await db.insert(swimmers).values({ accountId: family.userId, name: 'Dev Iyer', ageYears: 11, ageGivenOn: '2026-01-01', gender: 'male', swimmingExperience: 'beginner', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' }).returning({ id: swimmers.id })
      ids.sibling = sibling!.id
      await analysedSession(db, { ...family, swimmerId: ids.sibling, name: 'Dev Iyer' }, '2026-09-08', { metrics: { final_time: 38.4 }, publishedAt: new Date('2026-09-12T06:00:00Z') })
      const band = { stroke: 'freestyle', distanceMetres: 50, metricKey: 'final_time', ageMin: 10, ageMax: 18, gender: 'any' }
      await db.insert(referenceBands).values([
        { ...band, level: 'State finalist', value: 31.5 },
        { ...band, level: 'National finalist', value: 29.5 },
      ])
    },
  },
)

async function signedInParent(viewport = DESKTOP) {
  const context = await browser.context(site.url, viewport)
  const page = await context.newPage()
  await page.goto('/login')
  await signInWithForm(page, { email: PARENT.email, password: FAMILY_PASSWORD }, '**/book-slot')
  return { context, page }
}

/** The parent signed in once on a phone-sized browser, for the tests that only look at a page; each gets a new tab. */
let phone: ReturnType<typeof signedInParent> | undefined
async function phoneParent() {
  phone ??= signedInParent(PHONE)
  const page = await (await phone).context.newPage()
  await page.setViewportSize(PHONE)
  return { page }
}

const mainText = async (page: Page) => (await page.locator('main').innerText()).replace(/\s+/g, ' ')
/** An element's text as drawn, on one line. */
const said = async (locator: Locator) => (await locator.innerText()).replace(/\s+/g, ' ').trim()

describe('a family’s results in the browser', () => {
  it('the parent reads an analysis, jumps to a chapter, opens progress, shares it with a coach and revokes the link', async () => {
    const { context, page } = await signedInParent()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Analyses' }).click()
    await page.waitForURL('**/analyses')
    await expectNoAxeViolations(page)
    await page.getByRole('link', { name: 'Analysis of 7 September 2026' }).click()
    await page.waitForURL(`**/analyses/${ids.september}`)

    // Each figure a tile: its value, the change in words beside an arrow, and the one before.
    const finalTime = figureOn(page, 'Final time')
    await expect.poll(() => said(finalTime)).toMatch(/^Final time 30\.8 s Since the last analysis: ▲ 0\.4 s better Previous 31\.2 s /)
    expect(await said(figureOn(page, 'Stroke rate'))).toBe('Stroke rate 46 strokes/min Since the last analysis: ▼ 2 strokes/min worse Previous 48 strokes/min')
    expect(await said(figureOn(page, 'Stroke length'))).toBe('Stroke length 1.8 m Since the last analysis: No change Previous 1.8 m')
    // A figure measured for the first time says nothing of a previous value or a change.
    expect(await said(figureOn(page, 'Turn time (5 m in to 5 m out)'))).toBe('Turn time (5 m in to 5 m out) 7.9 s')
    // Where a figure stands against the reference levels, said in words; the picture of it is not read out.
    expect(await finalTime.getByText('Reaches State finalist (31.5 s). Not yet National finalist (29.5 s).', { exact: true }).isVisible()).toBe(true)
    expect(await finalTime.locator('svg').getAttribute('aria-hidden')).toBe('true')
    expect(await finalTime.ariaSnapshot()).toBe(
      [
        '- listitem:',
        '  - heading "Final time" [level=4]',
        '  - paragraph: 30.8 s',
        '  - paragraph: "Since the last analysis: 0.4 s better"',
        '  - paragraph: Previous 31.2 s',
        '  - paragraph: Against reference levels',
        '  - paragraph: Reaches State finalist (31.5 s). Not yet National finalist (29.5 s).',
      ].join('\n'),
    )
    expect(await figureOn(page, 'Stroke rate').getByText(/reference levels/i).count()).toBe(0)
    // The first clip is the main one, as wide as the figures below it.
    const [clipBox, figuresBox] = [await page.getByTestId('clip').first().locator('video').boundingBox(), await page.getByRole('region', { name: 'Figures' }).boundingBox()]
    expect(clipBox!.width).toBeGreaterThan(figuresBox!.width - 1)
    expect(await mainText(page)).toContain('Next analysis due: 7 December 2026')
    expect(await page.getByRole('link', { name: 'Book the next analysis' }).getAttribute('href')).toBe(`/book-slot?swimmer=${ids.swimmer}`)
    expect(await mainText(page)).toContain('Breathe-out drill')

    // The player and its chapters: without JavaScript a chapter's link opens the video there.
    const video = page.locator('video')
    expect(await video.getAttribute('src')).toBe(`/analyses/clips/${ids.clip}/video`)
    expect(await video.getAttribute('preload')).toBe('metadata')
    expect(await page.locator('video track[kind="chapters"]').getAttribute('src')).toBe(`/analyses/clips/${ids.clip}/chapters.vtt`)
    const turn = page.getByRole('navigation', { name: 'Chapters of Side view, September' }).getByRole('link', { name: /Turn/ })
    expect(await turn.getAttribute('href')).toBe(`/analyses/clips/${ids.clip}/video#t=12.5`)
    // With it, the link moves the player on the page to the chapter, and the page stays.
    await turn.click()
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBe(12.5)
    expect(new URL(page.url()).pathname).toBe(`/analyses/${ids.september}`)
    await page.getByRole('button', { name: '0.5× speed' }).click()
    expect(await video.evaluate((element: HTMLVideoElement) => element.playbackRate)).toBe(0.5)
    expect(await page.getByRole('button', { name: '0.5× speed' }).getAttribute('aria-pressed')).toBe('true')
    const chapters = await page.request.get(`/analyses/clips/${ids.clip}/chapters.vtt`)
    expect(await chapters.text()).toContain('00:00:12.500 --> 00:00:24.000\nTurn')
    await expectNoAxeViolations(page)

    // Progress: a chart per figure with its figures as a table, the personal best marked.
    await page.getByRole('link', { name: 'Progress over time' }).click()
    await page.waitForURL(`**/swimmers/${ids.swimmer}/progress`)
    await expect.poll(() => page.getByRole('img', { name: /Final time, 50 m freestyle/ }).count()).toBe(1)
    expect(await page.getByRole('table', { name: /Final time, 50 m freestyle/ }).innerText()).toMatch(/7 September 2026\s+30\.8 s\s*Personal best/)
    await expectNoAxeViolations(page)

    // The share form checks as you type, with rules it loads after the page shows: a mistyped address is said by the field once it is left, before anything is sent.
    await page.getByLabel('Coach’s e-mail address').fill('coach.ravi@')
    await page.getByLabel('It works for').focus()
    await expect.poll(() => page.getByText('Invalid email address').isVisible()).toBe(true)
    expect(await page.getByLabel('Coach’s e-mail address').getAttribute('aria-invalid')).toBe('true')

    // A link for the coach, e-mailed and shown once.
    await page.getByLabel('It works for').selectOption('30')
    await page.getByLabel('Coach’s e-mail address').fill('coach.ravi@example.com')
    await page.getByRole('button', { name: 'Create link' }).click()
    const shown = page.getByTestId('share-url')
    await expect.poll(() => shown.isVisible()).toBe(true)
    const link = await shown.inputValue()
    expect(link).toMatch(/\/shared\/[\w-]{43}$/)
    expect(await mainText(page)).toContain('Link created and e-mailed to coach.ravi@example.com.')
    expect(await page.getByTestId('share-links').innerText()).toContain('coach.ravi@example.com')
    // Beside it, a copy to the clipboard, said in words, and a WhatsApp message that names what is shared.
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url })
    await page.getByRole('button', { name: 'Copy the link' }).click()
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Copied' }).isVisible()).toBe(true)
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link)
    const whatsApp = page.getByRole('link', { name: /Send on WhatsApp/ })
    expect(await whatsApp.getAttribute('href')).toBe(`https://wa.me/?text=${encodeURIComponent(`Here are Asha’s swimming analysis results: ${link}`)}`)
    expect(await whatsApp.getAttribute('target')).toBe('_blank')
    expect(await whatsApp.getAttribute('rel')).toBe('noopener')
    await expectNoAxeViolations(page)

    // The coach, in a browser of their own, sees the results and nothing of the account.
    const coachContext = await browser.context(site.url, PHONE)
    const coach = await coachContext.newPage()
    await coach.goto(new URL(link).pathname)
    expect(await mainText(coach)).toContain('Asha’s swimming results')
    expect(await coach.locator('header').innerText()).not.toMatch(/My Bookings|Logout|Book a Session/)
    await expectNoAxeViolations(coach)
    await coach.getByRole('link', { name: 'Analysis of 7 September 2026' }).click()
    await coach.waitForURL(`**/analyses/${ids.september}`)
    expect(await coach.locator('video').getAttribute('src')).toMatch(new RegExp(`^/analyses/clips/${ids.clip}/video\\?share=[\\w-]{43}$`))
    await expectNoAxeViolations(coach)

    // The parent revokes it; the coach's page says so.
    await page.reload()
    await page.getByTestId('share-links').getByRole('button', { name: /Revoke/ }).click()
    await expect.poll(() => page.getByTestId('share-links').innerText()).toContain('Revoked')
    await coach.goto(new URL(link).pathname)
    expect(await mainText(coach)).toContain('This link is no longer valid')
    await expectNoAxeViolations(coach)
    await coachContext.close()
    await context.close()
  })

  // One test a page: each walks its page at two sizes with axe, which takes a while on a busy machine.
  it.each([
    ['the list of analyses', () => '/analyses'],
    ['an analysis', () => `/analyses/${ids.september}`],
    ["a swimmer's progress", () => `/swimmers/${ids.swimmer}/progress`],
    ['two analyses compared', () => `/swimmers/${ids.swimmer}/compare?a=${ids.march}&b=${ids.september}`],
    ['progress before a second analysis', () => `/swimmers/${ids.sibling}/progress`],
    ['compare before a second analysis', () => `/swimmers/${ids.sibling}/compare`],
  ])('%s works on a 360 px phone and passes axe there and on a laptop', async (_page, path) => {
    const { page } = await phoneParent()
    await page.goto(path())
    // Nothing wider than the screen: tables scroll inside their own box.
    await expectNoSidewaysScroll(page)
    await expectNoAxeViolations(page)
    await page.setViewportSize(LAPTOP)
    await expectNoAxeViolations(page)
    await page.close()
  })

  it('on a 360 px phone, the figures read in full, the progress chart is readable, and a link shared from the phone opens for a coach', async () => {
    const { context, page } = await signedInParent(PHONE)
    await page.goto(`/swimmers/${ids.sibling}/compare`)
    // Before a second analysis, progress and compare say what they will show, and offer to book it.
    expect(await mainText(page)).toContain('Dev has one analysis so far; after the next one you can compare the two here.')
    expect(await page.getByRole('link', { name: 'Book the next analysis' }).getAttribute('href')).toBe(`/book-slot?swimmer=${ids.sibling}`)
    await page.goto(`/swimmers/${ids.swimmer}/compare?a=${ids.march}&b=${ids.september}`)
    expect(await page.getByRole('row', { name: /Final time/ }).innerText()).toMatch(/31\.2 s\s+30\.8 s\s+▲\s+0\.4 s better/)
    // Every figure of the analysis in full on the phone, none of it in a box that scrolls sideways,
    // and the reference levels' marks as readable as the text around them.
    await page.goto(`/analyses/${ids.september}`)
    const tile = figureOn(page, 'Final time')
    for (const [name, part] of Object.entries({ tile, change: tile.getByText('0.4 s better'), previous: tile.getByText('Previous'), levels: tile.locator('svg'), standing: tile.getByText(/^Reaches State finalist/) })) {
      const box = await part.boundingBox()
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(360)
    }
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth)).toBe(true)
    await expectReadableText(page, '[data-testid="metrics"]')
    await page.goto(`/swimmers/${ids.swimmer}/progress`)
    await expectReadableText(page, 'main figure')
    // The same analysis shared from the phone, for one analysis only, opened by a coach at a desk.
    await page.goto(`/analyses/${ids.september}`)
    await page.getByLabel('Only this analysis').check()
    await page.getByRole('button', { name: 'Create link' }).click()
    await expect.poll(() => page.getByTestId('share-url').isVisible()).toBe(true)
    const oneLink = await page.getByTestId('share-url').inputValue()
    expect(await page.getByRole('link', { name: /Send on WhatsApp/ }).getAttribute('href')).toBe(`https://wa.me/?text=${encodeURIComponent(`Here is Asha’s swimming analysis: ${oneLink}`)}`)
    await expectNoSidewaysScroll(page)
    await expectNoAxeViolations(page)
    const coachContext = await browser.context(site.url, DESKTOP)
    const coach = await coachContext.newPage()
    await coach.goto(new URL(await page.getByTestId('share-url').inputValue()).pathname)
    expect(await mainText(coach)).toContain('Analysis of Asha')
    await expectNoAxeViolations(coach)
    await coach.goto(`${new URL(coach.url()).pathname}/progress`)
    expect(await mainText(coach)).not.toContain('figures over time')
    await coach.goto('/shared/not-a-link-at-all')
    expect(await mainText(coach)).toContain('This link is no longer valid')
    await expectNoAxeViolations(coach)
    // The links made on the analysis page are listed, to revoke, one link away from it.
    await page.goto(`/analyses/${ids.september}`)
    await page.getByRole('link', { name: 'See or revoke the links you have shared' }).click()
    await page.waitForURL(`**/swimmers/${ids.swimmer}/progress#shared-links`)
    const listed = page.getByTestId('share-links').getByRole('listitem').filter({ hasText: 'One analysis' }).filter({ hasText: 'Works' })
    await listed.getByRole('button', { name: /Revoke/ }).click()
    await expect.poll(() => page.getByTestId('share-links').getByRole('listitem').filter({ hasText: 'One analysis' }).innerText()).toContain('Revoked')
    await coach.goto(new URL(oneLink).pathname)
    expect(await mainText(coach)).toContain('This link is no longer valid')
    await coachContext.close()
    await page.goto(`/swimmers/${ids.swimmer}/compare?a=${ids.march}&b=${ids.september}`)
    // The turn of both analyses: each player opens at its turn; "Play both" starts both there.
    const players = page.getByRole('region', { name: 'The same moments on video' }).locator('video')
    expect(await players.evaluateAll((videos) => videos.map((video) => video.getAttribute('src')))).toEqual([`/analyses/clips/${ids.marchClip}/video#t=11`, `/analyses/clips/${ids.clip}/video#t=12.5`])
    await page.getByRole('button', { name: 'Play both from the turn' }).click()
    await expect.poll(() => players.evaluateAll((videos) => (videos as HTMLVideoElement[]).map((video) => video.currentTime))).toEqual([11, 12.5])
    await context.close()
  })

  it('without JavaScript, the event filter and the choice of two analyses are plain forms that work', async () => {
    const context = await browser.context(site.url, PHONE, { javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/login')
    await page.getByLabel('Email').fill(PARENT.email)
    await page.getByLabel('Password', { exact: true }).fill(FAMILY_PASSWORD)
    await page.getByRole('button', { name: 'Sign In' }).click()
    await page.waitForURL('**/book-slot')
    await page.goto(`/swimmers/${ids.swimmer}/progress`)
    await page.getByLabel('Event').selectOption('freestyle-50')
    await page.getByRole('button', { name: 'Show' }).click()
    await page.waitForURL(/event=freestyle-50/)
    expect(await page.getByRole('img', { name: /Final time, 50 m freestyle/ }).count()).toBe(1)
    await page.getByLabel('First').selectOption(String(ids.march))
    await page.getByLabel('Second').selectOption(String(ids.september))
    await page.getByRole('button', { name: 'Compare' }).click()
    await page.waitForURL(new RegExp(`/compare\\?a=${ids.march}&b=${ids.september}$`))
    expect(await mainText(page)).toMatch(/Stroke rate 48 strokes\/min 46 strokes\/min ▼ 2 strokes\/min worse/)
    // Without JavaScript there is no "Play both": the two players, one above the other.
    expect(await page.getByRole('button', { name: /Play both/ }).count()).toBe(0)
    await context.close()
  })
})
