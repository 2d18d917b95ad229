import { beforeAll, describe, expect, it } from 'vitest'
import { referenceBands, swimmers } from '~/db/schema'
import { addMinutes } from '~/lib/lab-time'
import { chooseSlot } from '../support/booking-flow'
import { accountWithSwimmer, analysedSession, clipOf, FAMILY_PASSWORD, shareLinkOf } from '../support/family-analyses'
import { useTestSite } from '../support/site'
import { decodeHtml, text, Visitor } from '../support/visitor'

// Who sees a swimmer's results: the analysis page, its chapter track, progress and compare, and a
// coach's link (/shared/<token>…), asked by a guest, the owning account, another account, staff,
// and holders of a working link, a link to one analysis, a revoked link and an expired one; as
// pages and as React Router's data requests. Nobody sees another account's results, and drafts are
// for staff only.

type Who = 'guest' | 'owner' | 'other' | 'staff' | 'link' | 'one' | 'revoked' | 'expired' | 'coach'
type Outcome = 'ok' | 'login' | 'not found' | 'gone'

const A = { name: 'Asha Owner', email: 'asha.owner@example.com' }
const B = { name: 'Bala Other', email: 'bala.other@example.com' }
const ids = { secondA: 0, a1: 0, a2: 0, a3: 0, b1: 0, clipA1: 0, clipA2: 0, swimmerA: 0, swimmerB: 0, referenceA: '', referenceB: '' }
const tokens = { link: '', one: '', revoked: '', expired: '', bLink: '' }

const site = useTestSite(
  {},
  {
    async prepare(db) {
      const a = await accountWithSwimmer(db, A)
      const b = await accountWithSwimmer(db, { ...B, gender: 'male' })
      ids.swimmerA = a.swimmerId
      ids.swimmerB = b.swimmerId
      // A's second swimmer, an adult: the one the invitation to book names.
      const [second] = await db.insert(swimmers).values({ accountId: a.userId, name: 'Kiran Owner', ageYears: 21, ageGivenOn: '2026-01-01', gender: 'male', swimmingExperience: 'advanced', academyName: 'NA', coachName: 'NA', specialization: 'freestyle' }).returning({ id: swimmers.id })
      ids.secondA = second!.id
      const first = await analysedSession(db, a, '2026-03-02', { metrics: { final_time: 31.2, stroke_rate: 48 }, publishedAt: new Date('2026-03-10T06:00:00Z') })
      ids.a1 = first.analysisId
      ids.referenceA = first.reference
      ids.a2 = (await analysedSession(db, a, '2026-06-01', { metrics: { final_time: 99.9 }, publishedAt: null, summary: 'DRAFT-SUMMARY' })).analysisId
      ids.a3 = (await analysedSession(db, a, '2026-09-07', { metrics: { final_time: 30.8, stroke_rate: 49 }, publishedAt: new Date('2026-09-12T06:00:00Z') })).analysisId
      const other = await analysedSession(db, b, '2026-04-06', { metrics: { final_time: 27.7 }, publishedAt: new Date('2026-04-10T06:00:00Z'), summary: 'BALA-SUMMARY' })
      ids.b1 = other.analysisId
      ids.referenceB = other.reference
      ids.clipA1 = await clipOf(db, ids.a1, 'March side view', [{ kind: 'start', seconds: 0 }, { kind: 'turn', seconds: 12.5 }])
      ids.clipA2 = await clipOf(db, ids.a2, 'Draft clip', [{ kind: 'turn', seconds: 3 }])
      tokens.link = await shareLinkOf(db, a)
      tokens.one = await shareLinkOf(db, a, { analysisId: ids.a1 })
      tokens.revoked = await shareLinkOf(db, a, { revokedAt: new Date() })
      tokens.expired = await shareLinkOf(db, a, { expiresAt: addMinutes(new Date(), -1) })
      tokens.bLink = await shareLinkOf(db, b)
      await db.insert(referenceBands).values({ stroke: 'freestyle', distanceMetres: 50, metricKey: 'final_time', ageMin: 10, ageMax: 18, gender: 'male', level: 'State finalist', value: 28.5 })
    },
  },
)

const visitors = {} as Record<Who, Visitor>

async function signIn(email: string) {
  const visitor = new Visitor(site.url)
  expect((await visitor.post('/login', { email, password: FAMILY_PASSWORD, website_url: '' })).status).toBe(302)
  return visitor
}

beforeAll(async () => {
  visitors.guest = new Visitor(site.url)
  visitors.owner = await signIn(A.email)
  visitors.other = await signIn(B.email)
  visitors.staff = await site.sharedStaff()
  for (const who of ['link', 'one', 'revoked', 'expired'] as const) visitors[who] = new Visitor(site.url)
  visitors.coach = await signIn(B.email)
})

const LINKS = ['link', 'one', 'revoked', 'expired'] as const
const isLink = (who: Who): who is (typeof LINKS)[number] => (LINKS as readonly string[]).includes(who)

/** The address as each viewer asks for it: a coach's link carries its token as `share`; the coach signed in to an account of their own (B's) carries the working link's. */
function addressFor(who: Who, path: string) {
  if (!isLink(who) && who !== 'coach') return path
  return `${path}${path.includes('?') ? '&' : '?'}share=${tokens[who === 'coach' ? 'link' : who]}`
}

type Row = { name: string; path: () => string; expect: Record<Exclude<Who, 'coach'>, Outcome>; file?: boolean; shows?: () => string[] }

/** A working link counts whoever is signed in: the signed-in coach is answered as the link is. */
const outcomeFor = (who: Who, row: Row) => row.expect[who === 'coach' ? 'link' : who]

const rows: Row[] = [
  { name: 'a published analysis of A', path: () => `/analyses/${ids.a1}`, expect: { guest: 'login', owner: 'ok', other: 'not found', staff: 'ok', link: 'ok', one: 'ok', revoked: 'gone', expired: 'gone' }, shows: () => ['March side view', '31.2 s'] },
  { name: "A's draft", path: () => `/analyses/${ids.a2}`, expect: { guest: 'login', owner: 'not found', other: 'not found', staff: 'ok', link: 'not found', one: 'not found', revoked: 'gone', expired: 'gone' }, shows: () => ['DRAFT-SUMMARY'] },
  { name: "A's later analysis", path: () => `/analyses/${ids.a3}`, expect: { guest: 'login', owner: 'ok', other: 'not found', staff: 'ok', link: 'ok', one: 'not found', revoked: 'gone', expired: 'gone' } },
  { name: "B's analysis", path: () => `/analyses/${ids.b1}`, expect: { guest: 'login', owner: 'not found', other: 'ok', staff: 'ok', link: 'not found', one: 'not found', revoked: 'gone', expired: 'gone' }, shows: () => ['BALA-SUMMARY'] },
  { name: "the chapters of A's clip", path: () => `/analyses/clips/${ids.clipA1}/chapters.vtt`, file: true, expect: { guest: 'login', owner: 'ok', other: 'not found', staff: 'ok', link: 'ok', one: 'ok', revoked: 'not found', expired: 'not found' }, shows: () => ['WEBVTT', 'Turn'] },
  { name: "the chapters of the draft's clip", path: () => `/analyses/clips/${ids.clipA2}/chapters.vtt`, file: true, expect: { guest: 'login', owner: 'not found', other: 'not found', staff: 'ok', link: 'not found', one: 'not found', revoked: 'not found', expired: 'not found' } },
  { name: "A's progress", path: () => `/swimmers/${ids.swimmerA}/progress`, expect: { guest: 'login', owner: 'ok', other: 'not found', staff: 'ok', link: 'ok', one: 'not found', revoked: 'gone', expired: 'gone' }, shows: () => ['Final time'] },
  { name: "A's two analyses compared", path: () => `/swimmers/${ids.swimmerA}/compare?a=${ids.a1}&b=${ids.a3}`, expect: { guest: 'login', owner: 'ok', other: 'not found', staff: 'ok', link: 'ok', one: 'not found', revoked: 'gone', expired: 'gone' }, shows: () => ['30.8 s', '0.4 s'] },
  { name: "B's progress", path: () => `/swimmers/${ids.swimmerB}/progress`, expect: { guest: 'login', owner: 'not found', other: 'ok', staff: 'ok', link: 'not found', one: 'not found', revoked: 'gone', expired: 'gone' } },
]

/** What a refusal (or a coach) must never see: B's results to anyone but B and staff, the draft, A's account details. */
const secretsFor = (who: Who, row: Row, outcome: Outcome) => [
  ...(outcome === 'ok' ? [] : ['BALA-SUMMARY', 'DRAFT-SUMMARY', '99.9 s', '27.7 s']),
  ...(isLink(who) ? [A.email, '98450 12345', ids.referenceA, 'My Bookings', 'Logout'] : []),
  ...(who === 'coach' ? [A.email, '98450 12345', ids.referenceA] : []),
  ...(who !== 'other' && who !== 'staff' && who !== 'coach' ? [B.name, B.email, ids.referenceB] : []),
]

function check(who: Who, row: Row, response: Awaited<ReturnType<Visitor['request']>>, { data = false } = {}) {
  const outcome = outcomeFor(who, row)
  const path = addressFor(who, row.path())
  const label = `${row.name}${data ? ' (.data)' : ''}, as ${who}`
  switch (outcome) {
    case 'ok':
      expect(response.status, label).toBe(200)
      for (const shown of row.shows?.() ?? []) expect(data ? response.html : text(response.html), label).toContain(shown)
      break
    case 'login':
      if (data) expect(response.status, label).not.toBe(200)
      else {
        expect(response.status, label).toBe(302)
        expect(response.location, label).toBe(`/login?${new URLSearchParams({ redirectTo: path })}`)
      }
      break
    case 'not found':
      expect(response.status, label).toBe(404)
      break
    case 'gone':
      expect(response.status, label).toBe(410)
      if (!data) expect(text(response.html), label).toContain('This link is no longer valid')
      break
  }
  if (response.status === 200 || response.status === 404 || response.status === 410) {
    expect(response.headers.get('Cache-Control'), label).toBe('private, no-store')
  }
  if (response.status === 200 || response.status === 410) expect(response.headers.get('Referrer-Policy'), label).toBe('no-referrer')
  // A results page is described to a link preview without the swimmer's name.
  if (response.status === 200 && !data && /\/analyses\/\d+$/.test(path)) expect(response.html, label).toMatch(/<meta name="description" content="A swimmer’s analysis from the lab[^"]*"/)
  for (const secret of secretsFor(who, row, outcome)) expect(response.html, `${label} shows ${secret}`).not.toContain(secret)
}

const dataPath = (path: string) => path.replace(/^([^?]*?)\/?(\?|$)/, (_, pathname: string, query: string) => `${pathname}.data${query}`)

describe('who sees a swimmer’s results', () => {
  for (const who of ['guest', 'owner', 'other', 'staff', 'link', 'one', 'revoked', 'expired', 'coach'] as const) {
    it(`as ${who}, as pages and as data requests`, async () => {
      for (const row of rows) {
        check(who, row, await visitors[who].get(addressFor(who, row.path())))
        if (!row.file) check(who, row, await visitors[who].get(dataPath(addressFor(who, row.path()))), { data: true })
      }
    })
  }

  it('My Analyses lists the account’s own published analyses only, with the way to the swimmer’s progress', async () => {
    const mine = (await visitors.owner.get('/analyses')).html
    expect(mine).toContain(`href="/analyses/${ids.a1}"`)
    expect(mine).toContain(`href="/analyses/${ids.a3}"`)
    expect(mine).toContain(`href="/swimmers/${ids.swimmerA}/progress"`)
    expect(mine).not.toContain(`/analyses/${ids.a2}"`)
    expect(mine).not.toContain(`/analyses/${ids.b1}"`)
    expect(text(mine).indexOf('7 September 2026')).toBeLessThan(text(mine).indexOf('2 March 2026'))
    expect((await visitors.guest.get('/analyses')).location).toBe('/login?redirectTo=%2Fanalyses')
    expect((await visitors.link.get(`/analyses?share=${tokens.link}`)).status).toBe(302)
  })
})

describe('a coach’s link', () => {
  type SharedRow = { name: string; path: (token: string) => string; expect: Record<(typeof LINKS)[number] | 'unknown', Outcome> }
  const shared: SharedRow[] = [
    { name: 'the link', path: (token) => `/shared/${token}`, expect: { link: 'ok', one: 'ok', revoked: 'gone', expired: 'gone', unknown: 'gone' } },
    { name: 'an analysis it covers', path: (token) => `/shared/${token}/analyses/${ids.a1}`, expect: { link: 'ok', one: 'ok', revoked: 'gone', expired: 'gone', unknown: 'gone' } },
    { name: 'the later analysis', path: (token) => `/shared/${token}/analyses/${ids.a3}`, expect: { link: 'ok', one: 'not found', revoked: 'gone', expired: 'gone', unknown: 'gone' } },
    { name: 'the draft', path: (token) => `/shared/${token}/analyses/${ids.a2}`, expect: { link: 'not found', one: 'not found', revoked: 'gone', expired: 'gone', unknown: 'gone' } },
    { name: "another account's analysis", path: (token) => `/shared/${token}/analyses/${ids.b1}`, expect: { link: 'not found', one: 'not found', revoked: 'gone', expired: 'gone', unknown: 'gone' } },
    { name: 'progress', path: (token) => `/shared/${token}/progress`, expect: { link: 'ok', one: 'not found', revoked: 'gone', expired: 'gone', unknown: 'gone' } },
    { name: 'compare', path: (token) => `/shared/${token}/compare?a=${ids.a1}&b=${ids.a3}`, expect: { link: 'ok', one: 'not found', revoked: 'gone', expired: 'gone', unknown: 'gone' } },
  ]
  const UNKNOWN = 'x'.repeat(43)

  for (const kind of [...LINKS, 'unknown'] as const) {
    it(`${kind}: the pages under it, as pages and data requests, show results and nothing else`, async () => {
      const visitor = new Visitor(site.url)
      const token = kind === 'unknown' ? UNKNOWN : tokens[kind]
      for (const row of shared) {
        for (const data of [false, true]) {
          const path = data ? dataPath(row.path(token)) : row.path(token)
          const response = await visitor.get(path)
          const label = `${row.name}${data ? ' (.data)' : ''} through ${kind}`
          const outcome = row.expect[kind]
          expect(response.status, label).toBe(outcome === 'ok' ? 200 : outcome === 'gone' ? 410 : 404)
          if (outcome === 'gone' && !data) {
            expect(text(response.html), label).toContain('This link is no longer valid')
            expect(response.html, label).toContain('<meta name="robots" content="noindex"/>')
          }
          if (response.status !== 404) {
            expect(response.headers.get('Cache-Control'), label).toBe('private, no-store')
            expect(response.headers.get('Referrer-Policy'), label).toBe('no-referrer')
          }
          for (const secret of [A.name, A.email, '98450 12345', ids.referenceA, B.name, 'BALA-SUMMARY', 'DRAFT-SUMMARY', 'My Bookings', 'Logout', 'Book a Session']) expect(response.html, `${label} shows ${secret}`).not.toContain(secret)
        }
      }
    })
  }

  it('shows the swimmer’s first name, the analyses and the files with the token on them', async () => {
    const coach = new Visitor(site.url)
    const page = (await coach.get(`/shared/${tokens.link}`)).html
    expect(text(page)).toContain('Asha’s swimming results')
    expect(page).toContain(`href="/shared/${tokens.link}/analyses/${ids.a1}"`)
    expect(page).toContain(`href="/shared/${tokens.link}/analyses/${ids.a3}"`)
    const analysis = (await coach.get(`/shared/${tokens.link}/analyses/${ids.a1}`)).html.replaceAll('&amp;', '&')
    expect(analysis).toContain(`src="/analyses/clips/${ids.clipA1}/video?share=${tokens.link}"`)
    expect(analysis).toContain(`src="/analyses/clips/${ids.clipA1}/chapters.vtt?share=${tokens.link}"`)
    expect(analysis).toContain(`href="/analyses/clips/${ids.clipA1}/video?share=${tokens.link}#t=12.5"`)
    // A coach does not book the swimmer's next session, nor share the results on.
    const main = /<main[^]*<\/main>/.exec(analysis)![0]
    expect(main).not.toContain('book-slot')
    expect(main).not.toContain('Share with a coach')
  })
})

describe('the report’s files on the analysis page', () => {
  it('open for whoever may see the analysis, with a coach’s token too, and for nobody else', async () => {
    const report = new FormData()
    report.append('files', new Blob([new TextEncoder().encode('%PDF-1.4\n% Asha March\n%%EOF\n')], { type: 'application/pdf' }), 'Asha March.pdf')
    report.append('videoLinks', 'Underwater | https://video.example/asha-march')
    expect((await visitors.staff.upload(`/admin/bookings/${ids.referenceA}`, report)).status).toBe(302)
    const page = decodeHtml((await visitors.owner.get(`/analyses/${ids.a1}`)).html)
    const file = /href="(\/analyses\/\d+\/report-files\/\d+)"/.exec(page)![1]!
    expect(text(page)).toContain('Underwater')
    const owner = await visitors.owner.get(file)
    expect(owner.status).toBe(200)
    expect(owner.headers.get('Content-Type')).toBe('application/pdf')
    expect(owner.headers.get('Cache-Control')).toBe('private, no-store')
    expect(new TextDecoder().decode(owner.bytes)).toContain('Asha March')
    expect((await visitors.staff.get(file)).status).toBe(200)
    expect((await visitors.link.get(`${file}?share=${tokens.link}`)).status).toBe(200)
    expect((await visitors.coach.get(`${file}?share=${tokens.link}`)).status).toBe(200)
    // Through a coach's page the link to the file carries the token.
    expect(decodeHtml((await new Visitor(site.url).get(`/shared/${tokens.link}/analyses/${ids.a1}`)).html)).toContain(`href="${file}?share=${tokens.link}"`)
    for (const [who, path] of [['other', file], ['revoked', `${file}?share=${tokens.revoked}`], ['expired', `${file}?share=${tokens.expired}`]] as const) expect((await visitors[who].get(path)).status, who).toBe(404)
    expect((await visitors.guest.get(file)).status).toBe(302)
    // The file under another analysis's address: not that analysis's file.
    const [, fileId] = /report-files\/(\d+)/.exec(file)!
    expect((await visitors.owner.get(`/analyses/${ids.a3}/report-files/${fileId}`)).status).toBe(404)
    expect((await visitors.other.get(`/analyses/${ids.b1}/report-files/${fileId}`)).status).toBe(404)
  })
})

describe('booking the next analysis', () => {
  /** The swimmers the confirmation offers (value → checked), from the page's radio buttons. */
  const swimmerRadios = (html: string) => [...html.matchAll(/<input[^>]*name="swimmerId"[^>]*>/g)].map((match) => [Number(/value="(\d+)"/.exec(match[0])![1]), /\schecked(=""|\s|>|\/)/.test(match[0])] as const)

  it('/book-slot?swimmer= chooses that swimmer of the account, keeps it while a date and time are picked, and ignores anyone else’s', async () => {
    const calendar = decodeHtml((await visitors.owner.get(`/book-slot?swimmer=${ids.secondA}`)).html)
    expect(text(calendar)).toContain('Booking for Kiran Owner.')
    expect(calendar).toMatch(new RegExp(`href="/book-slot\\?month=[\\d-]+&date=[\\d-]+&swimmer=${ids.secondA}"`))
    const slot = await chooseSlot(visitors.owner, 0, { daysAhead: 2 })
    const invited = await visitors.owner.get(`${slot.href}&swimmer=${ids.secondA}&confirm=1`)
    expect(swimmerRadios(invited.html)).toEqual([
      [ids.swimmerA, false],
      [ids.secondA, true],
    ])
    // Another account's swimmer is not chosen, named or offered: the usual first choice stands.
    const stranger = await visitors.owner.get(`${slot.href}&swimmer=${ids.swimmerB}&confirm=1`)
    expect(swimmerRadios(stranger.html)).toEqual([
      [ids.swimmerA, true],
      [ids.secondA, false],
    ])
    expect(stranger.html).not.toContain(B.name)
    expect(decodeHtml(stranger.html)).not.toMatch(new RegExp(`<a[^>]*href="[^"]*swimmer=${ids.swimmerB}"`))
  })
})

describe('progress and compare before there are two analyses to set side by side', () => {
  const ONE_PROGRESS = 'Progress shows how each figure changes from one analysis to the next. Bala has one analysis so far; after the next one you will see how each figure has changed, and the best so far.'
  const ONE_COMPARE = 'Compare sets two analyses side by side, figure by figure, with the same moments on video. Bala has one analysis so far; after the next one you can compare the two here.'

  it('with one analysis, the family’s and the coach’s pages say what comes after the next one, and the family may book it', async () => {
    for (const [who, visitor, progress, compare] of [
      ['family', visitors.other, `/swimmers/${ids.swimmerB}/progress`, `/swimmers/${ids.swimmerB}/compare?a=${ids.b1}&b=${ids.b1}`],
      ['coach', new Visitor(site.url), `/shared/${tokens.bLink}/progress`, `/shared/${tokens.bLink}/compare?a=${ids.b1}&b=${ids.b1}`],
    ] as const) {
      const progressPage = await visitor.get(progress)
      expect(progressPage.status, who).toBe(200)
      expect(text(progressPage.html), who).toContain(ONE_PROGRESS)
      // Not a chart of one dot, nor a "personal best" of one figure.
      expect(/<main[^]*<\/main>/.exec(progressPage.html)![0], who).not.toContain('role="img"')
      expect(text(progressPage.html), who).not.toContain('Personal best')
      expect(decodeHtml(progressPage.html), who).toContain(who === 'family' ? `href="/analyses/${ids.b1}"` : `href="/shared/${tokens.bLink}/analyses/${ids.b1}"`)
      const comparePage = await visitor.get(compare)
      expect(comparePage.status, who).toBe(200)
      expect(text(comparePage.html), who).toContain(ONE_COMPARE)
      // No analysis compared with itself, and no choice of one.
      expect(comparePage.html, who).not.toContain('data-testid="compare"')
      expect(comparePage.html, who).not.toContain('name="a"')
      for (const page of [progressPage, comparePage]) {
        const main = decodeHtml(/<main[^]*<\/main>/.exec(page.html)![0])
        if (who === 'family') expect(main).toContain(`href="/book-slot?swimmer=${ids.swimmerB}"`)
        else expect(main, 'a coach books nothing').not.toContain('book-slot')
      }
    }
  })

  it('with none, they say so', async () => {
    const progress = text((await visitors.owner.get(`/swimmers/${ids.secondA}/progress`)).html)
    expect(progress).toContain('Progress shows how each figure changes from one analysis to the next. Kiran has no published analysis yet; after the first two you will see how each figure has changed, and the best so far.')
    const compare = await visitors.owner.get(`/swimmers/${ids.secondA}/compare`)
    expect(text(compare.html)).toContain('Compare sets two analyses side by side, figure by figure, with the same moments on video. Kiran has no published analysis yet; after the first two you can compare them here.')
    expect(decodeHtml(compare.html)).toContain(`href="/book-slot?swimmer=${ids.secondA}"`)
  })

  it('with two, progress draws each figure and compare sets them side by side', async () => {
    const progress = await visitors.owner.get(`/swimmers/${ids.swimmerA}/progress`)
    expect(/<main[^]*<\/main>/.exec(progress.html)![0]).toContain('role="img"')
    expect(text(progress.html)).not.toContain('has one analysis so far')
    expect((await visitors.owner.get(`/swimmers/${ids.swimmerA}/compare?a=${ids.a1}&b=${ids.a3}`)).html).toContain('data-testid="compare"')
  })
})

describe('the figures of an analysis', () => {
  const figures = (html: string) => text(/data-testid="metrics"[^]*?<\/section>/.exec(html)![0])

  it('show no previous value or change at a swimmer’s first analysis, and reference levels only where there are some', async () => {
    const first = figures((await visitors.owner.get(`/analyses/${ids.a1}`)).html)
    expect(first).toContain('31.2 s')
    for (const empty of [/previous/i, /change/i, /last analysis/i, /better|worse/, /reference levels/i]) expect(first, String(empty)).not.toMatch(empty)
    const later = figures((await visitors.owner.get(`/analyses/${ids.a3}`)).html)
    expect(later).toMatch(/Final time 30\.8 s Since the last analysis: ▲ ?0\.4 s better Previous 31\.2 s/)
    expect(later).not.toContain('Against reference levels')
    const banded = figures((await visitors.other.get(`/analyses/${ids.b1}`)).html)
    expect(banded).toContain('Against reference levels')
    expect(banded).toContain('Reaches State finalist (28.5 s).')
    expect(banded).not.toContain('Previous')
  })
})
