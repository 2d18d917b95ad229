import { useEffect, useRef } from 'react'
import { Form, Link } from 'react-router'
import { useHydrated } from '~/web/use-hydrated'
import { LineChart, type ChartPoint } from './analysis-charts'
import { ChangeText } from './analysis-results'
import { clipLinks } from '~/lib/links'

export type ProgressPageView = {
  events: Array<{ key: string; label: string }>
  event: string | null
  analyses: Array<{ id: number; date: string }>
  series: Array<{ id: string; title: string; unit: string; betterWhen: 'higher' | 'lower'; points: ChartPoint[] }>
}

/**
 * A swimmer's figures over time: a filter by event (a plain GET form), a chart and a table per
 * figure, the analyses to open, and the form that picks two to compare. `base` is where the pages
 * live ("/swimmers/7" for the family, "/shared/<token>" for a coach). Before a second analysis
 * there is nothing to follow yet, and the page says what it will show.
 */
export function ProgressView({ name, progress, base, analysisHref, bookHref, share = null }: { name: string; progress: ProgressPageView; base: string; analysisHref: (id: number) => string; bookHref: string | null; share?: string | null }) {
  if (progress.analyses.length < 2) return <BeforeTwoAnalyses page="progress" name={name} analyses={progress.analyses} analysisHref={analysisHref} bookHref={bookHref} />
  return (
    <div className="space-y-10">
      <AnalysesList analyses={progress.analyses} analysisHref={analysisHref} />

      <section aria-labelledby="charts">
        <h2 id="charts" className="text-2xl font-bold text-brand-900">
          {name}’s figures over time
        </h2>
        <Form method="get" className="mt-3 flex flex-wrap items-end gap-3">
          {share && <input type="hidden" name="share" value={share} />}
          <div>
            <label htmlFor="event-filter" className="block text-sm font-semibold text-ink">
              Event
            </label>
            <select id="event-filter" name="event" defaultValue={progress.event ?? ''} className="input mt-1">
              <option value="">All events</option>
              {progress.events.map((event) => (
                <option key={event.key} value={event.key}>
                  {event.label}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn-secondary min-h-11 px-4 py-2">
            Show
          </button>
        </Form>
        <ul className="mt-6 grid gap-6 md:grid-cols-2">
          {progress.series.map((line) => (
            <li key={line.id} className="min-w-0">
              <LineChart title={line.title} unit={line.unit} points={line.points} betterWhen={line.betterWhen} />
            </li>
          ))}
        </ul>
      </section>

      <CompareChooser base={base} analyses={progress.analyses} chosen={null} share={share} />
    </div>
  )
}

const WHAT_IT_SHOWS = {
  progress: { intro: 'Progress shows how each figure changes from one analysis to the next.', afterOne: 'after the next one you will see how each figure has changed, and the best so far.', afterNone: 'after the first two you will see how each figure has changed, and the best so far.' },
  compare: { intro: 'Compare sets two analyses side by side, figure by figure, with the same moments on video.', afterOne: 'after the next one you can compare the two here.', afterNone: 'after the first two you can compare them here.' },
}

/**
 * Progress or compare for a swimmer with fewer than two analyses: what the page will show once there
 * are two, the analysis there is, and for the family the way to book the next one.
 */
export function BeforeTwoAnalyses({ page, name, analyses, analysisHref, bookHref }: { page: keyof typeof WHAT_IT_SHOWS; name: string; analyses: Array<{ id: number; date: string }>; analysisHref: (id: number) => string; bookHref: string | null }) {
  const text = WHAT_IT_SHOWS[page]
  return (
    <div className="space-y-8">
      <div className="max-w-2xl rounded-xl border border-brand-100 bg-brand-50 p-5">
        <p className="text-ink">
          {text.intro} {analyses.length === 0 ? `${name} has no published analysis yet; ${text.afterNone}` : `${name} has one analysis so far; ${text.afterOne}`}
        </p>
        {bookHref && (
          <Link to={bookHref} className="btn-primary mt-4">
            {analyses.length === 0 ? 'Book an analysis' : 'Book the next analysis'}
          </Link>
        )}
      </div>
      {analyses.length > 0 && <AnalysesList analyses={analyses} analysisHref={analysisHref} />}
    </div>
  )
}

/** The swimmer's analyses, newest first, each a link to its page. */
function AnalysesList({ analyses, analysisHref }: { analyses: Array<{ id: number; date: string }>; analysisHref: (id: number) => string }) {
  return (
    <section aria-labelledby="analyses-list">
      <h2 id="analyses-list" className="text-2xl font-bold text-brand-900">
        Analyses
      </h2>
      <ul className="mt-2 flex flex-wrap gap-2">
        {analyses.map((analysis) => (
          <li key={analysis.id}>
            <Link to={analysisHref(analysis.id)} className="inline-flex min-h-11 items-center rounded-full border border-slate-300 px-4 text-sm font-semibold text-brand-700 hover:bg-brand-50">
              {analysis.date}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** Two of the swimmer's analyses to compare, chosen with a plain GET form. */
export function CompareChooser({ base, analyses, chosen, share = null }: { base: string; analyses: Array<{ id: number; date: string }>; chosen: { a: number; b: number } | null; share?: string | null }) {
  const a = chosen?.a ?? analyses[1]?.id
  const b = chosen?.b ?? analyses[0]?.id
  return (
    <section aria-labelledby="compare-heading" className="card p-5 shadow-sm">
      <h2 id="compare-heading" className="text-xl font-bold text-brand-900">
        Compare two analyses
      </h2>
      <Form method="get" action={`${base}/compare`} className="mt-3 flex flex-wrap items-end gap-3">
        {share && <input type="hidden" name="share" value={share} />}
        <AnalysisChoice name="a" label="First" value={a} analyses={analyses} />
        <AnalysisChoice name="b" label="Second" value={b} analyses={analyses} />
        <button type="submit" className="btn-primary">
          Compare
        </button>
      </Form>
    </section>
  )
}

export type ComparePageView = {
  before: { id: number; date: string }
  after: { id: number; date: string }
  events: Array<{ key: string; label: string; metrics: Array<{ key: string; label: string; before: string; after: string; change: string; better: boolean | null }> }>
  chapters: Array<{ kind: string; label: string; before: { id: number; title: string; hasPoster: boolean; seconds: number }; after: { id: number; title: string; hasPoster: boolean; seconds: number } }>
}

/** Two analyses side by side: every figure of the events both have, and the same moments on video. */
export function CompareView({ compare, query }: { compare: ComparePageView; query: string }) {
  return (
    <div className="space-y-10">
      <section aria-labelledby="compare-figures">
        <h2 id="compare-figures" className="text-2xl font-bold text-brand-900">
          Figures
        </h2>
        {compare.events.length === 0 && <p className="mt-2 text-ink">These analyses have no event in common.</p>}
        {compare.events.map((event) => (
          <div key={event.key} className="mt-6">
            <h3 className="text-lg font-bold text-ink">{event.label}</h3>
            {/* Focusable, so the figures can be scrolled sideways from the keyboard on a narrow screen. */}
            <div className="mt-2 relative overflow-x-auto" tabIndex={0} role="region" aria-label={`${event.label}, compared`}>
              <table className="w-full min-w-[20rem] text-left text-sm" data-testid="compare">
                <caption className="sr-only">
                  {event.label}: {compare.before.date} and {compare.after.date}
                </caption>
                <thead>
                  <tr className="border-b border-slate-300 text-muted">
                    <th scope="col" className="py-2 pr-3 font-semibold">
                      Figure
                    </th>
                    <th scope="col" className="py-2 pr-3 font-semibold">
                      {compare.before.date}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-semibold">
                      {compare.after.date}
                    </th>
                    <th scope="col" className="py-2 font-semibold">
                      Change
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {event.metrics.map((metric) => (
                    <tr key={metric.key} className="border-b border-slate-200">
                      <th scope="row" className="py-2 pr-3 font-medium text-ink">
                        {metric.label}
                      </th>
                      <td className="py-2 pr-3 whitespace-nowrap text-ink">{metric.before}</td>
                      <td className="py-2 pr-3 whitespace-nowrap text-ink">{metric.after}</td>
                      <td className="py-2">
                        <ChangeText change={metric.change} better={metric.better} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        ))}
      </section>

      {compare.chapters.length > 0 && (
        <section aria-labelledby="compare-video">
          <h2 id="compare-video" className="text-2xl font-bold text-brand-900">
            The same moments on video
          </h2>
          {compare.chapters.map((chapter) => (
            <SyncedPair key={chapter.kind} chapter={chapter} dates={[compare.before.date, compare.after.date]} query={query} />
          ))}
        </section>
      )}
    </div>
  )
}

type PairClip = ComparePageView['chapters'][number]['before']

/**
 * The same chapter of two clips. Without JavaScript they are two players, one above the other, each
 * opening at the chapter (a media fragment). With it, "Play both" starts both at the chapter and
 * keeps them in step: playing, pausing or moving one does the same to the other.
 */
function SyncedPair({ chapter, dates, query }: { chapter: ComparePageView['chapters'][number]; dates: [string, string]; query: string }) {
  const hydrated = useHydrated()
  const first = useRef<HTMLVideoElement>(null)
  const second = useRef<HTMLVideoElement>(null)
  const clips: [PairClip, PairClip] = [chapter.before, chapter.after]

  useEffect(() => {
    const players = [first.current, second.current]
    if (!players[0] || !players[1]) return
    // Events caused by following the other player are not followed back.
    let following = false
    const follow = (from: 0 | 1, act: (other: HTMLVideoElement, self: HTMLVideoElement) => void) => () => {
      if (following) return
      following = true
      act(players[from === 0 ? 1 : 0]!, players[from]!)
      setTimeout(() => (following = false), 0)
    }
    const offsetOf = (index: 0 | 1) => clips[index].seconds
    const handlers = ([0, 1] as const).map((index) => {
      const other = index === 0 ? 1 : 0
      return {
        play: follow(index, (peer) => void peer.play().catch(() => {})),
        pause: follow(index, (peer) => peer.pause()),
        seeked: follow(index, (peer, self) => {
          peer.currentTime = Math.max(0, offsetOf(other) + (self.currentTime - offsetOf(index)))
        }),
        ratechange: follow(index, (peer, self) => {
          peer.playbackRate = self.playbackRate
        }),
      }
    })
    players.forEach((player, index) => {
      for (const [name, handler] of Object.entries(handlers[index]!)) player!.addEventListener(name, handler)
    })
    return () =>
      players.forEach((player, index) => {
        for (const [name, handler] of Object.entries(handlers[index]!)) player!.removeEventListener(name, handler)
      })
  }, [clips[0].seconds, clips[1].seconds])

  const playBoth = () => {
    const players = [first.current, second.current]
    players.forEach((player, index) => {
      if (!player) return
      player.pause()
      player.currentTime = clips[index]!.seconds
    })
    players.forEach((player) => void player?.play().catch(() => {}))
  }

  return (
    <div className="mt-6">
      <div className="flex flex-wrap items-center gap-3">
        <h3 className="text-lg font-bold text-ink">{chapter.label}</h3>
        {hydrated && (
          <button type="button" className="btn-primary min-h-11 px-4 py-2" onClick={playBoth}>
            Play both<span className="sr-only"> from the {chapter.label.toLowerCase()}</span>
          </button>
        )}
      </div>
      <div className={`mt-3 grid gap-4 ${hydrated ? 'lg:grid-cols-2' : ''}`}>
        {clips.map((clip, index) => {
          const urls = clipLinks(clip.id, query)
          return (
            <figure key={clip.id} className="min-w-0">
              <video
                ref={index === 0 ? first : second}
                controls
                preload="metadata"
                playsInline
                src={`${urls.video}#t=${clip.seconds}`}
                poster={clip.hasPoster ? urls.poster : undefined}
                className="aspect-video w-full rounded-lg bg-slate-900"
                aria-label={`${chapter.label}, ${dates[index]}: ${clip.title}`}
              >
                <track kind="chapters" src={urls.chapters} srcLang="en" label="Chapters" default />
              </video>
              <figcaption className="mt-1 text-sm text-muted">
                {dates[index]}: {clip.title}
              </figcaption>
            </figure>
          )
        })}
      </div>
    </div>
  )
}

/** One of the two analyses to compare, chosen by the date of its sessions. */
function AnalysisChoice({ name, label, value, analyses }: { name: string; label: string; value: number | string | undefined; analyses: Array<{ id: number; date: string }> }) {
  return (
    <div>
      <label htmlFor={`compare-${name}`} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      <select id={`compare-${name}`} name={name} defaultValue={value} className="input mt-1">
        {analyses.map((analysis) => (
          <option key={analysis.id} value={analysis.id}>
            {analysis.date}
          </option>
        ))}
      </select>
    </div>
  )
}
