import { Link } from 'react-router'
import { BandBar } from './analysis-charts'
import type { AnalysisPageView, MetricRowView } from '~/web/analyses/analysis-pages.server'
import { ClipPlayer } from './clip-player'
import { ReportContents } from './report-panel'

const PRIORITY_STYLE: Record<string, string> = {
  high: 'bg-red-100 text-red-900',
  medium: 'bg-amber-100 text-amber-900',
  low: 'bg-slate-200 text-slate-800',
}

const CHIP = 'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-sm font-semibold whitespace-nowrap ring-1 ring-inset'

/**
 * A change as a chip, said with an arrow and a word: "▲ 0.4 s better", "▼ 2 strokes/min worse",
 * "No change". Its colour only repeats the word; the arrow is for the eye, not read out.
 */
export function ChangeText({ change, better }: { change: string; better: boolean | null }) {
  if (better === null) return <span className={`${CHIP} bg-slate-100 text-slate-800 ring-slate-300`}>No change</span>
  return (
    <span className={`${CHIP} ${better ? 'bg-emerald-50 text-emerald-800 ring-emerald-200' : 'bg-red-50 text-red-800 ring-red-200'}`}>
      <span aria-hidden="true">{better ? '▲' : '▼'}</span>
      {change} {better ? 'better' : 'worse'}
    </span>
  )
}

/**
 * One figure as a tile: its name, its value large, the change since the last analysis that
 * measured it and that value, and where it stands against the reference levels, in a picture and
 * in words. A fact the figure does not have (no earlier value, no levels) leaves no empty place.
 */
function FigureTile({ metric }: { metric: MetricRowView }) {
  return (
    <li className="card flex min-w-0 flex-col p-4 shadow-sm sm:p-5">
      <h4 className="font-semibold text-muted">{metric.label}</h4>
      <p className="mt-1 text-3xl font-extrabold break-words text-brand-900 tabular-nums">{metric.value}</p>
      {(metric.change !== null || metric.previous !== null) && (
        <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
          {metric.change !== null && (
            <p>
              <span className="sr-only">Since the last analysis: </span>
              <ChangeText change={metric.change} better={metric.better} />
            </p>
          )}
          {metric.previous !== null && (
            <p className="text-muted">
              Previous <span className="font-semibold text-ink">{metric.previous}</span>
            </p>
          )}
        </div>
      )}
      {metric.band && (
        <div className="mt-auto pt-4">
          <div className="border-t border-slate-200 pt-3">
            <p className="text-xs font-bold tracking-wide text-muted uppercase">Against reference levels</p>
            <div className="mt-2">
              <BandBar value={metric.band.value} display={metric.band.display} betterWhen={metric.band.betterWhen} bands={metric.band.marks} />
            </div>
            <p className="mt-1 text-sm text-ink">{metric.band.standing}</p>
          </div>
        </div>
      )}
    </li>
  )
}

/** A clip's camera angle and event, under its player. */
function ClipNote({ clip }: { clip: AnalysisPageView['clips'][number] }) {
  return (
    <p className="mt-1 text-sm text-muted">
      {clip.angle}
      {clip.event && `, ${clip.event}`}
    </p>
  )
}

/** An analysis as the family or their coach sees it. `query` carries a coach's token on to the files. */
export function AnalysisResults({ page, query }: { page: AnalysisPageView; query: string }) {
  // At a swimmer's first analysis no figure has a previous value: the page does not speak of one.
  const anyPrevious = page.events.some((event) => event.metrics.some((metric) => metric.previous !== null))
  // The first clip is the main one, as wide as the page; the others follow in a grid.
  const [mainClip, ...moreClips] = page.clips
  return (
    <div className="space-y-10">
      {page.summary && (
        <section aria-labelledby="summary" className="card p-5 shadow-sm sm:p-6">
          <h2 id="summary" className="text-xl font-bold text-brand-900">
            Summary
          </h2>
          <p className="mt-2 whitespace-pre-line text-ink">{page.summary}</p>
        </section>
      )}

      {mainClip && (
        <section aria-labelledby="clips">
          <h2 id="clips" className="text-2xl font-bold text-brand-900">
            Video
          </h2>
          <div className="mt-4">
            <ClipPlayer clip={mainClip} query={query} priority />
            <ClipNote clip={mainClip} />
          </div>
          {moreClips.length > 0 && (
            <ul className="mt-8 grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
              {moreClips.map((clip) => (
                <li key={clip.id} className="min-w-0">
                  <ClipPlayer clip={clip} query={query} />
                  <ClipNote clip={clip} />
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      <section aria-labelledby="figures">
        <h2 id="figures" className="text-2xl font-bold text-brand-900">
          Figures
        </h2>
        <p className="mt-1 text-sm text-muted">
          Measured in a {page.poolLength} pool.{anyPrevious && ' “Previous” is the same figure at the last analysis that measured it.'}
        </p>
        {page.events.length === 0 && <p className="mt-3 text-ink">No figures were recorded in this analysis.</p>}
        {page.events.map((event) => (
          <div key={event.id} className="mt-6">
            <h3 className="text-lg font-bold text-ink">{event.label}</h3>
            <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="metrics">
              {event.metrics.map((metric) => (
                <FigureTile key={metric.key} metric={metric} />
              ))}
            </ul>
          </div>
        ))}
      </section>

      {page.findings.length > 0 && (
        <section aria-labelledby="findings">
          <h2 id="findings" className="text-2xl font-bold text-brand-900">
            What to work on
          </h2>
          <ol className="mt-4 space-y-4">
            {page.findings.map((finding) => (
              <li key={finding.id} className="card p-5 shadow-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="text-lg font-bold text-ink">{finding.title}</h3>
                  <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${PRIORITY_STYLE[finding.priority] ?? PRIORITY_STYLE.low}`}>Priority: {finding.priorityLabel}</span>
                </div>
                {finding.whyItMatters && <p className="mt-2 whitespace-pre-line text-ink">{finding.whyItMatters}</p>}
                {finding.drills.length > 0 && (
                  <>
                    <h4 className="mt-3 font-semibold text-ink">Drills</h4>
                    <ul className="mt-1 list-disc space-y-2 pl-5">
                      {finding.drills.map((drill) => (
                        <li key={drill.id} className="text-ink">
                          <strong>{drill.name}</strong>
                          {drill.instructions && <span className="whitespace-pre-line">: {drill.instructions}</span>}
                          {drill.videoUrl && (
                            <>
                              {' '}
                              <a href={drill.videoUrl} className="link" rel="noopener noreferrer" target="_blank">
                                Watch the drill<span className="sr-only"> {drill.name} (opens in a new tab)</span>
                              </a>
                            </>
                          )}
                        </li>
                      ))}
                    </ul>
                  </>
                )}
              </li>
            ))}
          </ol>
        </section>
      )}

      {page.report && (page.report.files.length > 0 || page.report.videoLinks.length > 0 || page.report.note) && (
        <section aria-labelledby="report" className="card p-5 shadow-sm">
          <h2 id="report" className="text-xl font-bold text-brand-900">
            Report
          </h2>
          <ReportContents report={page.report} />
        </section>
      )}

      {page.nextAnalysis && (
        <section aria-labelledby="next-analysis" className="rounded-xl border border-brand-100 bg-brand-50 p-5">
          <h2 id="next-analysis" className="text-lg font-bold text-brand-900">
            Next analysis due: {page.nextAnalysis.date}
          </h2>
          {page.nextAnalysis.bookHref && (
            <Link to={page.nextAnalysis.bookHref} className="btn-primary mt-3">
              Book the next analysis
            </Link>
          )}
        </section>
      )}
    </div>
  )
}

/** The whole page of one analysis: its heading, the way back, the results, and what else fits below (the share form). */
export function AnalysisPage({ page, query, back, progressHref, children }: { page: AnalysisPageView; query: string; back: { href: string; label: string } | null; progressHref: string | null; children?: React.ReactNode }) {
  return (
    <section className="container-page py-10 sm:py-14">
      {back && (
        <Link to={back.href} className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 underline underline-offset-4">
          {back.label}
        </Link>
      )}
      <h1 className="mt-2 text-3xl font-extrabold text-brand-900 sm:text-4xl">Analysis of {page.swimmerName}</h1>
      <p className="mt-2 text-muted">{page.sessions}</p>
      {page.place && <p className="mt-1 text-muted">Recorded at {page.place}</p>}
      {progressHref && (
        <Link to={progressHref} className="btn-secondary mt-4 min-h-11 px-4 py-2">
          Progress over time
        </Link>
      )}
      <div className="mt-8">
        <AnalysisResults page={page} query={query} />
      </div>
      {children && <div className="mt-10 space-y-6">{children}</div>}
    </section>
  )
}
