import path from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { loadConfig, setConfig } from '~/config.server'
import { useDatabase } from '~/db/client.server'
import { swimmers } from '~/db/schema'
import { addDays, labInstant, labToday } from '~/lib/lab-time'
import { inviteBackForNextAnalysis } from '~/modules/analyses/invitations.server'
import { DESKTOP, expectNoAxeViolations, PHONE, signInWithForm, useBrowser, watchPageErrors } from '../support/browser'
import { accountWithSwimmer, analysedSession, confirmedSession, FAMILY_PASSWORD, figureOn } from '../support/family-analyses'
import { useTestSite } from '../support/site'

// An analysis from the lab to the family and their coach, end to end in real browsers: staff record
// a booking's analysis (an event, its metrics, a finding with a drill, two clips uploaded with their
// chapters) and publish it; the parent, told by e-mail, watches a clip, jumps to a chapter, reads the
// change from the previous analysis, opens progress and shares it with the coach, who opens the link
// until the parent revokes it. The sibling whose next analysis has come due is invited back by e-mail,
// and its link opens booking for that swimmer.

const browser = useBrowser()
const PARENT = { name: 'Meera Rao', email: 'meera.rao@example.com' }
const VIDEO = path.resolve(import.meta.dirname, '../fixtures/swim-clip.webm')
const ids = { swimmer: 0, sibling: 0, reference: '' }

const site = useTestSite(
  {},
  {
    async prepare(db, installation) {
      const family = await accountWithSwimmer(db, PARENT)
      ids.swimmer = family.swimmerId
      await analysedSession(db, family, '2026-03-02', { metrics: { final_time: 31.2 }, publishedAt: new Date('2026-03-10T06:00:00Z') })
      ids.reference = (await confirmedSession(db, family, '2026-09-07')).reference
      // The sibling's analysis in June promised the next one for yesterday (in Bangalore), and the
      // site invited them back at 09:00 yesterday (invitations go out from 09:00, so a site started at
      // night sends none until the morning: the site's own job runs here at that hour instead).
      const [sibling] = await db
        .insert(swimmers)
        .values({ accountId: family.userId, name: 'Arjun Rao', ageYears: 19, ageGivenOn: '2026-01-01', gender: 'male', swimmingExperience: 'intermediate', academyName: 'NA', coachName: 'NA', specialization: 'backstroke' })
        .returning({ id: swimmers.id })
      ids.sibling = sibling!.id
      await analysedSession(db, { ...family, swimmerId: sibling!.id, name: 'Arjun Rao' }, '2026-06-01', { metrics: { final_time: 35.9 }, publishedAt: new Date('2026-06-05T06:00:00Z'), nextAnalysisOn: addDays(labToday(), -1) })
      useDatabase(installation.database)
      setConfig({ ...loadConfig(), SITE_URL: installation.siteUrl })
      try {
        expect(await inviteBackForNextAnalysis(labInstant(addDays(labToday(), -1), '09:00'))).toBe(1)
      } finally {
        useDatabase(undefined)
      }
    },
  },
)

const mainText = async (page: Page) => (await page.locator('main').innerText()).replace(/\s+/g, ' ')
const toast = (page: Page, title: string) => expect.poll(() => page.getByText(title, { exact: true }).first().isVisible()).toBe(true)

/** A link of the site in an e-mail, as a path. */
function linkIn(text: string, pattern: RegExp) {
  const found = pattern.exec(text)
  if (!found) throw new Error(`No link like ${pattern} in:\n${text}`)
  return new URL(found[0]).pathname + new URL(found[0]).search
}

async function uploadClip(page: Page, title: string, angle: string) {
  const form = page.getByRole('form', { name: 'Upload a clip' })
  await form.getByLabel('Video file').setInputFiles(VIDEO)
  await form.getByLabel('Title').fill(title)
  await form.getByLabel('Camera angle').selectOption({ label: angle })
  await form.getByRole('button', { name: 'Upload clip' }).click()
  await page.getByRole('heading', { name: title }).waitFor({ timeout: 30_000 })
}

describe('an analysis from the lab to the family and their coach', () => {
  it('staff record and publish it; the parent watches, reads and shares it; the coach is let in and shut out', async () => {
    // Staff record the analysis of the September booking.
    const staff = await browser.staff(site.url)
    const desk = await staff.newPage()
    const staffErrors = watchPageErrors(desk)
    await desk.goto(`/admin/bookings/${ids.reference}/analysis`)
    await desk.getByRole('button', { name: 'Start the analysis' }).click()
    await toast(desk, 'Analysis started')
    const events = desk.locator('#events')
    await events.getByLabel('Stroke').selectOption('freestyle')
    await events.getByLabel('Distance').selectOption('50')
    await events.getByRole('button', { name: 'Add the event' }).click()
    await expect.poll(() => events.getByRole('heading', { name: /50 m freestyle/ }).isVisible()).toBe(true)
    await events.getByLabel(/^Final time \(s\)/).fill('30.8')
    await events.getByRole('button', { name: 'Save the metrics of the 50 m freestyle' }).click()
    await toast(desk, 'Metrics saved')
    const findings = desk.locator('#findings')
    await findings.getByLabel('What you found').fill('Breathing late on the turn')
    await findings.getByLabel('Why it matters').fill('Lifting the head into the wall costs speed off it.')
    await findings.getByRole('radio', { name: 'High' }).check()
    await findings.getByRole('button', { name: 'Add the finding' }).click()
    await toast(desk, 'Finding added')
    await findings.getByText('Add a drill').click()
    await findings.getByLabel('Drill', { exact: true }).fill('Breathe-out turns')
    await findings.getByLabel('How to do it').fill('8 × 25 m, breathe out fully before the wall.')
    await findings.getByRole('button', { name: 'Add the drill' }).click()
    await toast(desk, 'Drill added')

    // Two clips, the first with its chapters.
    await desk.getByRole('link', { name: 'Upload and arrange the clips' }).click()
    await desk.getByRole('heading', { name: 'Upload a clip' }).waitFor()
    await uploadClip(desk, 'Underwater, the turn', 'Underwater, side')
    await uploadClip(desk, 'Above water, the race', 'Above water')
    const clip = desk.getByRole('article', { name: 'Underwater, the turn' })
    await clip.getByLabel('Chapter 1: what happens').selectOption({ label: 'Start' })
    await clip.getByLabel('Chapter 1: from').fill('0:00')
    await clip.getByLabel('Chapter 2: what happens').selectOption({ label: 'Turn' })
    await clip.getByLabel('Chapter 2: from').fill('0:01.5')
    await clip.getByRole('button', { name: 'Save clip' }).click()
    await expect.poll(() => desk.getByRole('article', { name: 'Underwater, the turn' }).getByLabel('Chapter 2: from').inputValue()).toBe('0:01.5')

    await desk.goto(`/admin/bookings/${ids.reference}/analysis`)
    await desk.locator('#publish').getByRole('button', { name: 'Publish', exact: true }).click()
    await toast(desk, 'Analysis published')
    expect(staffErrors).toEqual([])
    await staff.close()

    // The parent is told, and opens the analysis on their phone.
    const ready = await site.sink.waitForMailTo(PARENT.email, /'s biomechanical analysis is ready/)
    const analysisPath = linkIn(ready.text, /http:\/\/127\.0\.0\.1:\d+\/analyses\/\d+/)
    const family = await browser.context(site.url, PHONE)
    const phone = await family.newPage()
    const familyErrors = watchPageErrors(phone)
    await phone.goto('/login')
    await signInWithForm(phone, { email: PARENT.email, password: FAMILY_PASSWORD }, '**/book-slot')
    await phone.goto(analysisPath)
    expect((await figureOn(phone, 'Final time').innerText()).replace(/\s+/g, ' ')).toBe('Final time 30.8 s Since the last analysis: ▲ 0.4 s better Previous 31.2 s')
    expect(await mainText(phone)).toContain('Breathe-out turns')
    expect(await phone.locator('video').count()).toBe(2)

    // The clip plays from the site, and its chapter link moves it to the turn.
    const video = phone.locator('video').first()
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true
      return element.play()
    })
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(2)
    await phone.getByRole('navigation', { name: 'Chapters of Underwater, the turn' }).getByRole('link', { name: /Turn/ }).click()
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThanOrEqual(1.5)
    expect(new URL(phone.url()).pathname).toBe(analysisPath)
    await expectNoAxeViolations(phone)

    // Progress over the two analyses, then a link for the coach.
    await phone.getByRole('link', { name: 'Progress over time' }).click()
    await phone.waitForURL(`**/swimmers/${ids.swimmer}/progress`)
    expect(await phone.getByRole('table', { name: /Final time, 50 m freestyle/ }).innerText()).toMatch(/30\.8 s\s*Personal best/)
    await phone.getByLabel('Coach’s e-mail address').fill('coach.vikram@example.com')
    await phone.getByRole('button', { name: 'Create link' }).click()
    await expect.poll(() => phone.getByTestId('share-url').isVisible()).toBe(true)
    const coachMail = await site.sink.waitForMailTo('coach.vikram@example.com')
    const sharedPath = linkIn(coachMail.text, /http:\/\/127\.0\.0\.1:\d+\/shared\/[\w-]{43}/)

    // The coach, at a desk, sees the results and nothing of the family's account.
    const coachContext = await browser.context(site.url, DESKTOP)
    const coach = await coachContext.newPage()
    await coach.goto(sharedPath)
    expect(await mainText(coach)).toContain('Meera’s swimming results')
    expect(await mainText(coach)).not.toContain(PARENT.email)
    await expectNoAxeViolations(coach)

    // The parent revokes it; the coach's page says it is no longer valid.
    await phone.reload()
    await phone.getByTestId('share-links').getByRole('button', { name: /Revoke/ }).click()
    await expect.poll(() => phone.getByTestId('share-links').innerText()).toContain('Revoked')
    await coach.reload()
    expect(await mainText(coach)).toContain('This link is no longer valid')
    await coachContext.close()

    // The sibling's next analysis is due: the invitation's link opens booking for that swimmer.
    const invitation = await site.sink.waitForMailTo(PARENT.email, /Arjun/)
    const bookAgain = linkIn(invitation.text, /http:\/\/127\.0\.0\.1:\d+\/book-slot\?swimmer=\d+/)
    expect(bookAgain).toBe(`/book-slot?swimmer=${ids.sibling}`)
    await phone.goto(bookAgain)
    expect(await mainText(phone)).toContain('Booking for Arjun Rao.')
    expect(familyErrors).toEqual([])
    await family.close()
  }, 240_000)
})
