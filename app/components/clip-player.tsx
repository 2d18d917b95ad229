import { useRef, useState } from 'react'
import { preload } from 'react-dom'
import type { PlayerClip } from '~/web/analyses/analysis-pages.server'
import { useHydrated } from '~/web/use-hydrated'
import { clipLinks } from '~/lib/links'


/** One frame at the lab's recording rate: the clips are taken at 30 frames a second, so a step is 1/30 s. */
export const FRAME_SECONDS = 1 / 30

const SPEEDS = [0.25, 0.5, 1] as const

export const formatSeconds = (seconds: number) => {
  const whole = Math.floor(seconds)
  const tenths = Math.round((seconds - whole) * 10)
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}${tenths ? `.${tenths}` : ''}`
}

/**
 * A clip in the browser's own player, with its chapters as a track and as a list of links. Without
 * JavaScript a chapter's link opens the video at that moment (a media fragment, #t=seconds); with it,
 * the link moves the player on the page there and plays, and buttons slow it down or step frame by frame.
 * `priority`: the page's main clip, whose poster is the largest thing in the first screen. A browser
 * finds a video's poster only once it has laid the video out, so the poster is preloaded from the
 * head of the page (React writes the preload there, before the stylesheet) and comes with it.
 */
export function ClipPlayer({ clip, query, headingLevel = 3, priority = false }: { clip: PlayerClip; query: string; headingLevel?: 2 | 3; priority?: boolean }) {
  const video = useRef<HTMLVideoElement>(null)
  const hydrated = useHydrated()
  const [speed, setSpeed] = useState<number>(1)
  const urls = clipLinks(clip.id, query)
  if (priority && clip.hasPoster) preload(urls.poster, { as: 'image', fetchPriority: 'high' })
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const seek = (seconds: number) => {
    const player = video.current
    if (!player) return
    player.currentTime = seconds
    void player.play().catch(() => {})
  }
  const step = (frames: number) => {
    const player = video.current
    if (!player) return
    player.pause()
    player.currentTime = Math.max(0, player.currentTime + frames * FRAME_SECONDS)
  }
  const setRate = (rate: number) => {
    setSpeed(rate)
    if (video.current) video.current.playbackRate = rate
  }
  return (
    <div className="min-w-0" data-testid="clip">
      <Heading className="font-bold text-ink">{clip.title}</Heading>
      <video ref={video} controls preload="metadata" playsInline src={urls.video} poster={clip.hasPoster ? urls.poster : undefined} className="mt-2 aspect-video w-full rounded-lg bg-slate-900" aria-label={clip.title}>
        <track kind="chapters" src={urls.chapters} srcLang="en" label="Chapters" default />
      </video>
      {hydrated && (
        <div className="mt-2 flex flex-wrap items-center gap-2" role="group" aria-label={`Playback of ${clip.title}`}>
          {SPEEDS.map((rate) => (
            <button key={rate} type="button" className="btn-secondary min-h-11 px-3 py-1" aria-pressed={speed === rate} onClick={() => setRate(rate)}>
              {rate}×<span className="sr-only"> speed</span>
            </button>
          ))}
          <button type="button" className="btn-secondary min-h-11 px-3 py-1" onClick={() => step(-1)}>
            <span aria-hidden="true">◀ </span>Frame back
          </button>
          <button type="button" className="btn-secondary min-h-11 px-3 py-1" onClick={() => step(1)}>
            Frame forward<span aria-hidden="true"> ▶</span>
          </button>
        </div>
      )}
      {clip.chapters.length > 0 && (
        <nav aria-label={`Chapters of ${clip.title}`} className="mt-2">
          <ul className="flex flex-wrap gap-2">
            {clip.chapters.map((chapter) => (
              <li key={`${chapter.kind}-${chapter.seconds}`}>
                <a
                  href={`${urls.video}#t=${chapter.seconds}`}
                  className="inline-flex min-h-11 items-center rounded-full border border-slate-300 px-3 text-sm font-semibold text-brand-700 hover:bg-brand-50"
                  onClick={(event) => {
                    if (!video.current) return
                    event.preventDefault()
                    seek(chapter.seconds)
                  }}
                >
                  {chapter.label} <span className="ml-1 font-normal text-muted">{formatSeconds(chapter.seconds)}</span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </div>
  )
}
