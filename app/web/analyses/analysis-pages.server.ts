import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { data, redirect } from 'react-router'
import { DomainError } from '~/lib/domain-error'
import { formatLabDate, formatLabDateTime, formatLongDate, formatShortDayMonth, formatWeekdayDate } from '~/lib/lab-time'
import { whatsappMessageLink } from '~/lib/phone'
import { rowId } from '~/lib/row-id'
import { maySeeSwimmer, shareViewer, viewerOfUser, type AnalysisViewer } from '~/modules/analyses/access.server'
import { ShareLinkSchema } from '~/modules/analyses/share-schemas'
import { createShareLink, revokeShareLink, shareLinksOf } from '~/modules/analyses/shares.server'
import { bandStanding, compareInHistory, formatChange, formatFigure, progressSeries, swimmerHeading, swimmerHistory, type AnalysisView, type HistoryEntry, type MetricView } from '~/modules/analyses/views.server'
import { getUser, requestedPath, requireUser } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { rejectBots } from '~/web/honeypot'
import { formIntent } from '~/web/intent'
import { formErrorsOf, notFoundUnless, refusalOf } from '~/web/refusals.server'
import { reportView, type ReportView } from '~/web/reports/report-view.server'
import { redirectWithToast } from '~/web/toast.server'
import { analysisReportFileLink, bookSlotLink, loginLink } from '~/lib/links'

// Who is asking on the results pages (the family's, staff's, or a coach's through a shared link),
// and the headers those pages carry. For routes only.

/** A clip as the clip player shows it: its title, whether it has a poster, and its chapters. */
export type PlayerClip = { id: number; title: string; hasPoster: boolean; chapters: Array<{ kind: string; label: string; seconds: number }> }

/** One figure of an analysis as its page shows it, every value written out. */
export type MetricRowView = {
  key: string
  label: string
  value: string
  previous: string | null
  /** How much it changed since `previous`, without its sign; `better` says which way (null: no change). */
  change: string | null
  better: boolean | null
  band: { value: number; display: string; betterWhen: 'higher' | 'lower'; marks: Array<{ level: string; value: number; display: string }>; standing: string } | null
}

/** An analysis as its page shows it (`analysisPageOf`), for the family or their coach. */
export type AnalysisPageView = {
  id: number
  swimmerName: string
  sessions: string
  /** Where the analysis was recorded (empty for the sample). */
  place: string
  summary: string
  poolLength: string
  events: Array<{ id: number; label: string; metrics: MetricRowView[] }>
  clips: Array<PlayerClip & { angle: string; event: string | null }>
  findings: Array<{ id: number; title: string; whyItMatters: string; priority: string; priorityLabel: string; drills: Array<{ id: number; name: string; instructions: string; videoUrl: string | null }> }>
  report: ReportView | null
  nextAnalysis: { date: string; bookHref: string | null } | null
}

/**
 * The headers of every results page and file: personal, so never cached; and the address may hold a
 * coach's token, so it is never sent on to another site as a referrer.
 */
export const RESULTS_HEADERS = { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' }

/** A file of the results nobody may see here, or none: 404, as private as a found one. */
export function notFoundFile() {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...RESULTS_HEADERS } })
}

/** What a coach's link that was revoked, has expired or never existed answers, in place of the page. */
export const LINK_GONE = { gone: true as const }

export function linkGone() {
  return data(LINK_GONE, { status: 410, headers: RESULTS_HEADERS })
}

/**
 * Who is asking: the holder of a working share link whose token the address carries as `share` (the
 * coach's pages and the files they load), whoever is signed in, since a coach may have an account
 * of their own; else the signed-in account or staff member.
 */
export async function viewerOf(request: Request, now = new Date()): Promise<AnalysisViewer | null> {
  const share = await shareViewer(new URL(request.url).searchParams.get('share'), now)
  if (share) return share
  const user = await getUser(request)
  return user ? viewerOfUser(user) : null
}

/**
 * Who is asking for a results page or file under /analyses or /swimmers (`viewerOf`): the holder of a
 * working coach's link whose token the address carries as `share`, or the signed-in account or
 * staff. Nobody signed in and no link: off to sign in (and back). Returns null for a link that no
 * longer works.
 */
export async function resultsViewer(request: Request): Promise<{ viewer: AnalysisViewer | null; share: string | null }> {
  const share = new URL(request.url).searchParams.get('share')
  const viewer = await viewerOf(request)
  if (viewer) return { viewer, share: viewer.kind === 'share' ? share : null }
  if (!share) throw redirect(loginLink(requestedPath(request)))
  return { viewer: null, share }
}

/** The query that carries a coach's token on to the files a page loads ("" for the family). */
export const shareQuery = (share: string | null) => (share ? `?${new URLSearchParams({ share })}` : '')

/** An analysis's page data, every figure and date written out; `family` adds the way to book the next one. */
export function analysisPageOf(view: AnalysisView, { query, family }: { query: string; family: boolean }): AnalysisPageView {
  return {
    id: view.id,
    swimmerName: view.swimmerName,
    sessions: sessionsText(view.sessionDates),
    place: view.place,
    summary: view.summary,
    poolLength: `${view.poolLengthMetres} m`,
    events: eventRowsOf(view.events),
    clips: view.clips.map((clip) => ({ id: clip.id, title: clip.title, hasPoster: clip.hasPoster, chapters: clip.chapters, angle: clip.angleLabel, event: clip.event })),
    findings: view.findings,
    report: reportView(view.report, (fileId) => analysisReportFileLink(view.id, fileId, query)),
    nextAnalysis: view.nextAnalysisOn ? { date: formatLongDate(view.nextAnalysisOn), bookHref: family && view.swimmer ? bookSlotLink({ swimmer: String(view.swimmer.id) }) : null } : null,
  }
}

/** An analysis's events as its page shows them, every figure written out (the family's and the public sample's alike). */
export function eventRowsOf(events: Array<{ id: number; label: string; metrics: MetricView[] }>): AnalysisPageView['events'] {
  return events.map((event) => ({
    id: event.id,
    label: event.label,
    metrics: event.metrics.map((metric) => ({
      key: metric.key,
      label: metric.label,
      value: formatFigure(metric.value, metric.unit),
      previous: metric.previous === null ? null : formatFigure(metric.previous, metric.unit),
      change: metric.change === null ? null : formatChange(metric.change, metric.unit),
      better: metric.better,
      band: metric.bands.length
        ? { value: metric.value, display: formatFigure(metric.value, metric.unit), betterWhen: metric.betterWhen, marks: metric.bands.map((band) => ({ ...band, display: formatFigure(band.value, metric.unit) })), standing: bandStanding(metric) ?? '' }
        : null,
    })),
  }))
}

/** "Tuesday, 1 December 2026 to Thursday, 3 December 2026", or the one day. */
export function sessionsText(dates: string[]) {
  if (dates.length === 0) return ''
  if (dates.length === 1) return formatWeekdayDate(dates[0]!)
  return `${formatWeekdayDate(dates[0]!)} to ${formatWeekdayDate(dates[dates.length - 1]!)}`
}

/** A swimmer's progress as the charts draw it. */
export function progressPageOf(history: HistoryEntry[], eventKey: string | null) {
  const known = progressSeries(history)
  const chosen = eventKey && known.events.some((event) => event.key === eventKey) ? eventKey : null
  const { series } = progressSeries(history, chosen)
  return {
    events: known.events,
    event: chosen,
    analyses: [...history].reverse().map((entry) => ({ id: entry.id, date: formatLongDate(entry.sessionDate) })),
    series: series.map((line) => ({
      id: `${line.eventKey}-${line.key}`,
      title: `${line.label}, ${line.eventLabel}`,
      unit: line.unit,
      betterWhen: line.betterWhen,
      points: line.points.map((point) => ({ date: point.date, dateText: formatLongDate(point.date), dateLabel: `${formatShortDayMonth(point.date)} ${point.date.slice(2, 4)}`, value: point.value, display: formatFigure(point.value, line.unit), personalBest: point.personalBest })),
    })),
  }
}

/**
 * The compare page's data for a swimmer (the family's or a coach's): the analyses to choose from,
 * newest first, the two chosen in the address (`?a=&b=`), and the two side by side when both are
 * analyses of this swimmer.
 */
export async function compareChoiceOf(swimmerId: number, search: URLSearchParams) {
  const [a, b] = [rowId(search.get('a')), rowId(search.get('b'))]
  const history = await swimmerHistory(swimmerId)
  const compared = a && b ? await compareInHistory(history, a, b) : null
  return {
    analyses: [...history].reverse().map((entry) => ({ id: entry.id, date: formatLongDate(entry.sessionDate) })),
    chosen: a && b ? { a, b } : null,
    compare: compared ? comparePageOf(compared) : null,
  }
}

/** Two analyses side by side as the compare page shows them. */
function comparePageOf(compared: NonNullable<Awaited<ReturnType<typeof compareInHistory>>>) {
  return {
    before: { id: compared.before.id, date: formatLongDate(compared.before.sessionDate) },
    after: { id: compared.after.id, date: formatLongDate(compared.after.sessionDate) },
    events: compared.events.map((event) => ({
      key: event.key,
      label: event.label,
      metrics: event.metrics.map((metric) => ({ key: metric.key, label: metric.label, before: formatFigure(metric.before, metric.unit), after: formatFigure(metric.after, metric.unit), change: formatChange(metric.change, metric.unit), better: metric.better })),
    })),
    chapters: compared.chapters,
  }
}

/**
 * The results pages' two forms, for the swimmer's own account: a link for a coach (this swimmer's
 * results, or `analysisId` only), and revoking one. A new link is shown once, on the answer, with a
 * WhatsApp message that carries it.
 */
export async function shareFormsAction(request: Request, { swimmerId, swimmerFirstName, analysisId }: { swimmerId: number; swimmerFirstName: string; analysisId: number | null }) {
  const user = await requireUser(request)
  const formData = await readForm(request)
  rejectBots(formData)
  const intent = formIntent(formData, ['share', 'revoke'])
  notFoundUnless(intent)
  if (intent === 'revoke') {
    const linkId = rowId(String(formData.get('linkId') ?? ''))
    notFoundUnless(linkId)
    try {
      await revokeShareLink(user.id, linkId)
    } catch (error) {
      refusalOf(error)
    }
    return redirectWithToast(requestedPath(request), { type: 'success', title: 'Link revoked', description: 'The link no longer works.' }, RESULTS_HEADERS)
  }
  const submission = parseWithZod(formData, { schema: ShareLinkSchema })
  if (submission.status !== 'success') return data({ result: submission.reply(), created: null }, { status: 400, headers: RESULTS_HEADERS })
  try {
    const scoped = submission.value.scope === 'analysis' ? analysisId : null
    if (submission.value.scope === 'analysis' && scoped === null) throw new DomainError('invalid', 'Please choose what the link shows', 'scope')
    const link = await createShareLink({ accountId: user.id, swimmerId, analysisId: scoped, days: Number(submission.value.days), coachEmail: submission.value.coachEmail ?? null })
    const message = scoped === null ? `Here are ${swimmerFirstName}’s swimming analysis results: ${link.url}` : `Here is ${swimmerFirstName}’s swimming analysis: ${link.url}`
    return data({ result: submission.reply({ resetForm: true }), created: { url: link.url, expires: formatLabDate(link.expiresAt), emailedTo: submission.value.coachEmail ?? null, whatsApp: whatsappMessageLink(message) } }, { headers: RESULTS_HEADERS })
  } catch (error) {
    const refusal = refusalOf(error)
    return data({ result: submission.reply(formErrorsOf(refusal)), created: null }, { status: refusal.status, headers: RESULTS_HEADERS })
  }
}

/**
 * The attributes of the share form's fields (which are required, the choices' patterns), worked out
 * once: a results page shows the form with them and loads the schema that checks it afterwards.
 */
export const SHARE_FORM_CONSTRAINT = getZodConstraint(ShareLinkSchema)

/** The account's links for the swimmer, as the list shows them. */
export async function shareLinksView(accountId: number, swimmerId: number) {
  const links = await shareLinksOf(accountId, swimmerId)
  return links.map((link) => ({
    id: link.id,
    scope: link.analysisId === null ? 'All results' : `One analysis`,
    analysisId: link.analysisId,
    coachEmail: link.coachEmail,
    created: formatLabDate(link.createdAt),
    expires: formatLabDate(link.expiresAt),
    lastOpened: link.lastOpenedAt ? formatLabDateTime(link.lastOpenedAt) : null,
    state: link.state,
  }))
}

/** The viewer a coach's link under /shared/<token> stands for, or null once it no longer works. */
export function sharedViewer(token: string | undefined) {
  return shareViewer(token)
}

/** The swimmer whose progress or comparison a page shows, once the viewer may see all their results (404 otherwise). */
async function swimmerSeenBy(viewer: AnalysisViewer, swimmerId: number | null) {
  notFoundUnless(swimmerId && (await maySeeSwimmer(viewer, swimmerId)))
  const swimmer = await swimmerHeading(swimmerId)
  notFoundUnless(swimmer)
  return swimmer
}

/**
 * The swimmer of a results page under /swimmers/<id> and who asks (`resultsViewer`): `name` as the
 * page heads it (the first name only for a coach), and `familyAccountId`, the account signed in when
 * the swimmer is its own (null for staff and coaches). Null for a coach's link that no longer works.
 */
export async function swimmerPageOf(request: Request, id: string | undefined) {
  const { viewer, share } = await resultsViewer(request)
  if (!viewer) return null
  const swimmerId = rowId(id)
  const swimmer = await swimmerSeenBy(viewer, swimmerId)
  const familyAccountId = viewer.kind === 'account' && swimmer.accountId === viewer.accountId ? viewer.accountId : null
  return { share, swimmerId: swimmer.id, swimmer, name: viewer.kind === 'share' ? swimmer.firstName : swimmer.name, familyAccountId }
}

/** The swimmer of a coach's link for all their results under /shared/<token>, or null once it no longer works. */
export async function sharedSwimmerOf(token: string | undefined) {
  const viewer = await sharedViewer(token)
  return viewer ? swimmerSeenBy(viewer, viewer.swimmerId) : null
}
