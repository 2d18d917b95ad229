import { useId, useRef, useState } from 'react'
import { data, Form, Link, useFetcher } from 'react-router'
import type { Route } from './+types/analysis-clips'
import { ClipUploader } from '~/components/clip-uploader'
import { FormAlert } from '~/components/form-controls'
import { requireAdmin } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { formatFileSize } from '~/web/file-size'
import { formIntent } from '~/web/intent'
import { refusalOf } from '~/web/refusals.server'
import { rowId } from '~/lib/row-id'
import { redirectWithToast } from '~/web/toast.server'
import { useHydrated } from '~/web/use-hydrated'
import { angleLabel, CAMERA_ANGLES, CHAPTER_KINDS } from '~/modules/analyses/catalog'
import { clipsAnalysisOfBooking, clipsOf, formatClipTime, removeClip, setClipPoster, updateClip } from '~/modules/analyses/files/clips.server'
import { CLIP_TITLE_MAX, POSTER_MAX_BYTES } from '~/modules/analyses/files/limits'
import { DomainError } from '~/lib/domain-error'
import { adminAnalysisLink, adminBookingLink, adminClipsLink, clipLinks } from '~/lib/links'

export const meta: Route.MetaFunction = ({ params }) => [{ title: `Clips of booking ${params.reference} | Admin` }, { name: 'robots', content: 'noindex' }]

/** Where the browser sends clips (server/clip-uploads.ts answers it). */
const UPLOADS_ENDPOINT = '/uploads/clips'
/** Empty chapter rows under a clip's marks: a new mark can be added without JavaScript. */
const EMPTY_CHAPTER_ROWS = 2

async function analysisOf(request: Request, reference: string) {
  const admin = await requireAdmin(request)
  try {
    return { ...(await clipsAnalysisOfBooking(reference, admin.id)), refusal: null }
  } catch (error) {
    const refusal = refusalOf(error)
    return { refusal }
  }
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const found = await analysisOf(request, params.reference)
  // A booking that is not confirmed has no analysis: the page says so instead of its clips.
  if (found.refusal) return data({ blocked: found.refusal.message, reference: params.reference, swimmerName: '', analysisId: 0, events: [], clips: [] }, { status: found.refusal.status, headers: { 'Cache-Control': 'private, no-store' } })
  const clips = await clipsOf(found.analysisId!)
  return data(
    {
      blocked: null,
      reference: found.booking!.reference,
      swimmerName: found.booking!.swimmerName,
      analysisId: found.analysisId!,
      events: found.events!,
      clips: clips.map((clip) => ({ ...clip, chapters: clip.chapters.map((chapter) => ({ kind: chapter.kind, time: formatClipTime(chapter.seconds) })), sizeLabel: formatFileSize(clip.sizeBytes) })),
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

type ActionResult = { clipId: number; form: 'update' | 'poster'; error: string; field?: string }

export async function action({ request, params }: Route.ActionArgs) {
  const found = await analysisOf(request, params.reference)
  if (found.refusal) return data({ clipId: 0, form: 'update' as const, error: found.refusal.message }, { status: found.refusal.status })
  const analysisId = found.analysisId!
  // A poster is up to 5 MB, sent as a form file: room for it and the form's other fields.
  const formData = await readForm(request, { maxBytes: POSTER_MAX_BYTES + 64 * 1024 })
  const clipId = rowId(String(formData.get('clipId') ?? '')) ?? 0
  const intent = formIntent(formData, ['update', 'poster', 'remove'])
  const here = adminClipsLink(found.booking!.reference)
  try {
    switch (intent) {
      case 'update': {
        const kinds = formData.getAll('chapterKind').map(String)
        const times = formData.getAll('chapterTime').map(String)
        const eventId = String(formData.get('eventId') ?? '')
        await updateClip(analysisId, clipId, {
          title: String(formData.get('title') ?? ''),
          angle: String(formData.get('angle') ?? ''),
          eventId: eventId ? (rowId(eventId) ?? -1) : null,
          chapters: kinds.map((kind, index) => ({ kind, time: times[index] ?? '' })),
        })
        return redirectWithToast(`${here}#clip-${clipId}`, { type: 'success', title: 'Clip saved' })
      }
      case 'poster': {
        const poster = formData.get('poster')
        if (!(poster instanceof File) || poster.size === 0) throw new DomainError('invalid', 'Choose an image for the poster.', 'poster')
        await setClipPoster(analysisId, clipId, new Uint8Array(await poster.arrayBuffer()))
        return redirectWithToast(`${here}#clip-${clipId}`, { type: 'success', title: 'Poster saved' })
      }
      case 'remove': {
        const title = await removeClip(analysisId, clipId)
        return redirectWithToast(here, { type: 'success', title: `Clip "${title}" removed` })
      }
      default:
        return data<ActionResult>({ clipId, form: 'update', error: 'Please send the form from its page.' }, { status: 400 })
    }
  } catch (error) {
    const refusal = refusalOf(error)
    return data<ActionResult>({ clipId, form: intent === 'poster' ? 'poster' : 'update', error: refusal.message, field: refusal.error.field }, { status: refusal.status })
  }
}

type Clip = Route.ComponentProps['loaderData']['clips'][number]
type Event = Route.ComponentProps['loaderData']['events'][number]

export default function AnalysisClips({ loaderData, actionData }: Route.ComponentProps) {
  const { blocked, reference, swimmerName, analysisId, events, clips } = loaderData
  const hydrated = useHydrated()
  if (blocked) {
    return (
      <section>
        <Link to={adminBookingLink(reference)} className="link text-sm">
          Booking {reference}
        </Link>
        <h1 className="mt-2 text-3xl font-extrabold text-brand-900">Clips of booking {reference}</h1>
        <p role="alert" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-ink">
          {blocked}
        </p>
      </section>
    )
  }
  return (
    <section>
      <nav aria-label="Breadcrumb" className="flex flex-wrap gap-x-4 text-sm font-semibold">
        <Link to={adminBookingLink(reference)} className="inline-flex min-h-11 items-center text-brand-700 underline underline-offset-2">
          Booking {reference}
        </Link>
        <Link to={adminAnalysisLink(reference)} className="inline-flex min-h-11 items-center text-brand-700 underline underline-offset-2">
          Analysis
        </Link>
      </nav>
      <h1 className="mt-2 text-3xl font-extrabold text-brand-900">Clips of {swimmerName}&rsquo;s analysis</h1>
      <p className="mt-2 text-muted">Videos the family sees with the analysis once it is published, with their chapters and poster images.</p>
      <noscript>
        <p className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-ink">Uploading a clip needs JavaScript. Everything else on this page (titles, angles, events, chapters, posters, removing a clip) works without it.</p>
      </noscript>
      <div className="mt-6 grid gap-6 xl:grid-cols-[1fr_2fr]">
        <div>{hydrated && <ClipUploader analysisId={analysisId} endpoint={UPLOADS_ENDPOINT} titleMax={CLIP_TITLE_MAX} />}</div>
        <section aria-labelledby="clips-heading">
          <h2 id="clips-heading" className="text-xl font-bold text-ink">
            Clips ({clips.length})
          </h2>
          {clips.length === 0 ? (
            <p className="mt-2 text-muted">No clips yet.</p>
          ) : (
            <ul className="mt-3 space-y-6">
              {clips.map((clip) => (
                <li key={clip.id} id={`clip-${clip.id}`}>
                  <ClipCard clip={clip} events={events} error={actionData && 'clipId' in actionData && actionData.clipId === clip.id ? actionData : null} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </section>
  )
}

function ClipCard({ clip, events, error }: { clip: Clip; events: Event[]; error: ActionResult | null }) {
  const id = useId()
  const hydrated = useHydrated()
  const videoRef = useRef<HTMLVideoElement>(null)
  const frame = useFetcher<ActionResult>()
  const [frameError, setFrameError] = useState<string | null>(null)
  const updateError = error?.form === 'update' ? error : null
  const posterError = error?.form === 'poster' ? error.error : (frame.data?.error ?? frameError)
  const chapterRows = [...clip.chapters, ...Array.from({ length: EMPTY_CHAPTER_ROWS }, () => ({ kind: '', time: '' }))]

  function useCurrentFrame() {
    const video = videoRef.current
    if (!video || !video.videoWidth) return setFrameError('Play the video to the frame you want first.')
    const canvas = document.createElement('canvas')
    canvas.width = video.videoWidth
    canvas.height = video.videoHeight
    canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height)
    canvas.toBlob(
      (blob) => {
        if (!blob) return setFrameError('The frame could not be captured.')
        setFrameError(null)
        const form = new FormData()
        form.set('intent', 'poster')
        form.set('clipId', String(clip.id))
        form.set('poster', new File([blob], 'frame.jpg', { type: 'image/jpeg' }))
        void frame.submit(form, { method: 'post', encType: 'multipart/form-data' })
      },
      'image/jpeg',
      0.85,
    )
  }

  return (
    <article aria-labelledby={`${id}-title`} className="card space-y-4 p-6">
      <h3 id={`${id}-title`} className="text-lg font-bold text-ink">
        {clip.title}
      </h3>
      <p className="text-sm text-muted">
        {angleLabel(clip.angle)} · {clip.sizeLabel}
      </p>
      <video ref={videoRef} controls preload="metadata" src={clipLinks(clip.id).video} poster={clip.hasPoster ? clipLinks(clip.id).poster : undefined} className="w-full max-w-xl rounded-lg bg-black" aria-label={`Video: ${clip.title}`} />

      <Form method="post" className="space-y-4" aria-label={`Details of ${clip.title}`}>
        <input type="hidden" name="clipId" value={clip.id} />
        {updateError && !updateError.field && <FormAlert id={`${id}-error`} errors={[updateError.error]} />}
        <FieldRow id={`${id}-title-input`} label="Title" error={updateError?.field === 'title' ? updateError.error : undefined}>
          {(described) => <input id={`${id}-title-input`} name="title" type="text" required maxLength={CLIP_TITLE_MAX} defaultValue={clip.title} className="input mt-1" {...described} />}
        </FieldRow>
        <FieldRow id={`${id}-angle`} label="Camera angle" error={updateError?.field === 'angle' ? updateError.error : undefined}>
          {(described) => (
            <select id={`${id}-angle`} name="angle" defaultValue={clip.angle} className="input mt-1" {...described}>
              {CAMERA_ANGLES.map((angle) => (
                <option key={angle.value} value={angle.value}>
                  {angle.label}
                </option>
              ))}
            </select>
          )}
        </FieldRow>
        <FieldRow id={`${id}-event`} label="Event (optional)" error={updateError?.field === 'eventId' ? updateError.error : undefined}>
          {(described) => (
            <select id={`${id}-event`} name="eventId" defaultValue={clip.eventId ?? ''} className="input mt-1" {...described}>
              <option value="">None</option>
              {events.map((event) => (
                <option key={event.id} value={event.id}>
                  {event.label}
                </option>
              ))}
            </select>
          )}
        </FieldRow>
        <fieldset aria-describedby={`${id}-chapters-hint${updateError?.field === 'chapters' ? ` ${id}-chapters-error` : ''}`}>
          <legend className="text-sm font-semibold text-ink">Chapters</legend>
          <p id={`${id}-chapters-hint`} className="mt-1 text-sm text-muted">
            What happens from which moment of the clip, as minutes:seconds (0:03.2), each after the one before. Leave a row empty to skip it.
          </p>
          {updateError?.field === 'chapters' && (
            <p id={`${id}-chapters-error`} className="mt-1 text-sm font-medium text-red-700">
              {updateError.error}
            </p>
          )}
          <ol className="mt-2 space-y-2">
            {chapterRows.map((chapter, index) => (
              <li key={`${index}-${chapter.kind}-${chapter.time}`} className="flex flex-wrap items-end gap-3">
                <div>
                  <label htmlFor={`${id}-kind-${index}`} className="block text-sm text-ink">
                    Chapter {index + 1}: what happens
                  </label>
                  <select id={`${id}-kind-${index}`} name="chapterKind" defaultValue={chapter.kind} className="input mt-1">
                    <option value="">None</option>
                    {CHAPTER_KINDS.map((kind) => (
                      <option key={kind.value} value={kind.value}>
                        {kind.label}
                      </option>
                    ))}
                  </select>
                </div>
                <div>
                  <label htmlFor={`${id}-time-${index}`} className="block text-sm text-ink">
                    Chapter {index + 1}: from
                  </label>
                  <input id={`${id}-time-${index}`} name="chapterTime" type="text" inputMode="decimal" defaultValue={chapter.time} placeholder="0:03.2" className="input mt-1 w-32" />
                </div>
              </li>
            ))}
          </ol>
        </fieldset>
        <button type="submit" name="intent" value="update" className="btn-primary">
          Save clip
        </button>
      </Form>

      <Form method="post" encType="multipart/form-data" className="space-y-3 border-t border-slate-200 pt-4" aria-label={`Poster of ${clip.title}`}>
        <input type="hidden" name="clipId" value={clip.id} />
        <div>
          <label htmlFor={`${id}-poster`} className="block text-sm font-semibold text-ink">
            Poster image
          </label>
          <input id={`${id}-poster`} name="poster" type="file" accept="image/jpeg,image/png,image/webp" aria-describedby={`${id}-poster-hint${posterError ? ` ${id}-poster-error` : ''}`} aria-invalid={posterError ? true : undefined} className="input mt-1" />
          <p id={`${id}-poster-hint`} className="mt-1 text-sm text-muted">
            JPEG, PNG or WebP, up to 5 MB: what the family sees before the video plays.
          </p>
          {posterError && (
            <p id={`${id}-poster-error`} role="alert" className="mt-1 text-sm font-medium text-red-700">
              {posterError}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-3">
          <button type="submit" name="intent" value="poster" className="btn-secondary">
            Upload poster
          </button>
          {hydrated && (
            <button type="button" onClick={useCurrentFrame} className="btn-secondary" disabled={frame.state !== 'idle'}>
              Use the current frame
            </button>
          )}
        </div>
      </Form>

      <Form method="post" className="border-t border-slate-200 pt-4">
        <input type="hidden" name="clipId" value={clip.id} />
        <button type="submit" name="intent" value="remove" className="text-sm font-semibold text-red-800 underline underline-offset-2">
          Remove the clip &ldquo;{clip.title}&rdquo; and its files
        </button>
      </Form>
    </article>
  )
}

function FieldRow({ id, label, error, children }: { id: string; label: string; error?: string; children: (described: { 'aria-describedby'?: string; 'aria-invalid'?: true }) => React.ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      {children(error ? { 'aria-describedby': `${id}-error`, 'aria-invalid': true } : {})}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  )
}

