import { useId, useRef, useState, type FormEvent } from 'react'
import { useRevalidator } from 'react-router'
import { CAMERA_ANGLES } from '~/modules/analyses/catalog'
import { formatFileSize } from '~/web/file-size'

type Progress = { sent: number; total: number }

/**
 * Uploads a clip with the tus protocol: the file goes in one stream, and a connection that drops
 * is resumed from the bytes the site already has (also after the page is reloaded and the same
 * file chosen again: tus-js-client remembers the upload by the file's name, size and date).
 * Progress is a progress bar with its figures in text; the site's refusal (a file that is not a
 * video) is shown as it says it.
 */
export function ClipUploader({ analysisId, endpoint, titleMax }: { analysisId: number; endpoint: string; titleMax: number }) {
  const id = useId()
  const revalidator = useRevalidator()
  const [progress, setProgress] = useState<Progress | null>(null)
  const [announced, setAnnounced] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const uploading = progress !== null

  async function upload(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const form = event.currentTarget
    const data = new FormData(form)
    const file = data.get('clip')
    if (!(file instanceof File) || file.size === 0) return setError('Choose the video file to upload.')
    setError(null)
    setDone(null)
    setProgress({ sent: 0, total: file.size })
    setAnnounced(`Uploading ${file.name}.`)
    const tus = await import('tus-js-client')
    let lastStep = 0
    const upload = new tus.Upload(file, {
      endpoint,
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
      removeFingerprintOnSuccess: true,
      metadata: { analysisId: String(analysisId), title: String(data.get('title') ?? ''), angle: String(data.get('angle') ?? ''), filename: file.name, filetype: file.type },
      onProgress(sent, total) {
        setProgress({ sent, total })
        // Screen readers hear every quarter, not every chunk.
        const step = Math.floor((sent / total) * 4)
        if (step > lastStep && step < 4) {
          lastStep = step
          setAnnounced(`${step * 25}% uploaded.`)
        }
      },
      onSuccess() {
        setProgress(null)
        setDone(`${file.name} is uploaded.`)
        formRef.current?.reset()
        void revalidator.revalidate()
      },
      onError(failure) {
        setProgress(null)
        const body = (failure as { originalResponse?: { getBody(): string } | null }).originalResponse?.getBody()?.trim()
        setError(body && body.length < 300 ? body : 'The upload failed. Check the connection and try again: it goes on from where it stopped.')
      },
    })
    const previous = await upload.findPreviousUploads()
    if (previous[0]) upload.resumeFromPreviousUpload(previous[0])
    upload.start()
  }

  const percent = progress && progress.total ? Math.floor((progress.sent / progress.total) * 100) : 0
  return (
    <form ref={formRef} onSubmit={upload} className="card space-y-4 p-6" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="text-lg font-bold text-ink">
        Upload a clip
      </h2>
      <div>
        <label htmlFor={`${id}-file`} className="block text-sm font-semibold text-ink">
          Video file
        </label>
        <input id={`${id}-file`} name="clip" type="file" required accept="video/mp4,video/webm,video/quicktime,.mp4,.webm,.mov" aria-describedby={`${id}-file-hint`} className="input mt-1" disabled={uploading} />
        <p id={`${id}-file-hint`} className="mt-1 text-sm text-muted">
          MP4, WebM or MOV, up to 2 GB. A dropped connection resumes where it stopped.
        </p>
      </div>
      <div>
        <label htmlFor={`${id}-title`} className="block text-sm font-semibold text-ink">
          Title
        </label>
        <input id={`${id}-title`} name="title" type="text" required maxLength={titleMax} className="input mt-1" disabled={uploading} />
      </div>
      <div>
        <label htmlFor={`${id}-angle`} className="block text-sm font-semibold text-ink">
          Camera angle
        </label>
        <select id={`${id}-angle`} name="angle" required defaultValue="" className="input mt-1" disabled={uploading}>
          <option value="" disabled>
            Choose the angle
          </option>
          {CAMERA_ANGLES.map((angle) => (
            <option key={angle.value} value={angle.value}>
              {angle.label}
            </option>
          ))}
        </select>
      </div>
      {error && (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          {error}
        </p>
      )}
      {progress && (
        <div>
          <label htmlFor={`${id}-progress`} className="block text-sm font-semibold text-ink">
            Upload progress
          </label>
          <progress id={`${id}-progress`} max={100} value={percent} aria-describedby={`${id}-progress-text`} className="mt-1 h-3 w-full" />
          <p id={`${id}-progress-text`} className="mt-1 text-sm text-ink">
            {percent}% ({formatFileSize(progress.sent)} of {formatFileSize(progress.total)})
          </p>
        </div>
      )}
      {/* Milestones are heard, not seen (the bar shows them); the outcome is both. */}
      <p role="status" className={done ? 'text-sm font-semibold text-green-800' : 'sr-only'}>
        {done ?? announced}
      </p>
      <button type="submit" className="btn-primary" disabled={uploading}>
        {uploading ? 'Uploading…' : 'Upload clip'}
      </button>
    </form>
  )
}
