import { getFormProps, getInputProps, type FieldMetadata, type SubmissionResult } from '@conform-to/react'
import { data, Form, href, useNavigation } from 'react-router'
import type { Route } from './+types/media'
import { FieldError, FormAlert, SelectField, TextAreaField, TextField, useValidatedForm } from '~/components/form-fields'
import { Panel } from '~/components/panel'
import { ALT_TEXT_MAX, COLLECTION_CODES, COLLECTIONS, IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS, isCollection, megabytes, VIDEO_LOOP_MAX_BYTES, VIDEO_LOOP_MAX_SECONDS } from '~/modules/media/limits'
import { deleteMedia, libraryForStaff, updateMediaDetails, uploadMedia, usablePhotos, type LibraryItem } from '~/modules/media/media.server'
import { DeleteMediaSchema, FILE_TOO_LARGE, MediaDetailsSchema, UploadSchema } from '~/modules/media/schemas'
import { requireAdmin } from '~/web/auth.server'
import { formatFileSize } from '~/web/file-size'
import { readForm } from '~/web/form-data.server'
import { dispatchForm, submitForm } from '~/web/page-forms.server'
import { redirectWithToast } from '~/web/toast.server'

export const meta: Route.MetaFunction = () => [{ title: 'Media library | Admin' }, { name: 'robots', content: 'noindex' }]

const COLLECTION_OPTIONS = COLLECTION_CODES.map((code) => ({ value: code, label: COLLECTIONS[code].label }))

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const [items, posters] = await Promise.all([libraryForStaff(), Promise.all((['lab', 'pool', 'underwater'] as const).map((collection) => usablePhotos(collection)))])
  return {
    items: items.map((item) => ({
      id: item.id,
      kind: item.kind,
      collection: isCollection(item.collection) ? COLLECTIONS[item.collection].label : item.collection,
      title: item.title,
      status: item.status,
      failure: item.failure,
      size: `${item.width} × ${item.height} px, ${formatFileSize(item.originalBytes)}`,
      seconds: item.durationMs === null ? null : Math.round(item.durationMs / 1000),
      hasSound: item.hasSound,
      thumbnail: item.thumbnail,
      video: item.video,
      placeholder: item.placeholder,
      usedBy: item.usedBy,
      defaults: { id: String(item.id), title: item.title, altText: item.altText, decorative: item.decorative ? 'on' : '', posterId: item.posterId ? String(item.posterId) : '' },
    })),
    posterOptions: posters.flat().map((photo) => ({ value: String(photo.id), label: photo.title })),
  }
}

type Intent = 'upload' | 'details' | 'delete'

const backToLibrary = (title: string, description?: string) => redirectWithToast(href('/admin/media'), { type: 'success', title, description })

/** An upload is a form file of up to the larger of the two limits, with room for the form's other fields. */
const MAX_FORM_BYTES = Math.max(IMAGE_MAX_BYTES, VIDEO_LOOP_MAX_BYTES) + 64 * 1024

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const actor = { id: admin.id, email: admin.email }
  // A file over the limit is refused before it is read, with the message next to the file field
  // (the browser checks it first when it runs the page's script).
  if (Number(request.headers.get('Content-Length')) > MAX_FORM_BYTES) {
    return data({ intent: 'upload' as Intent, target: '', result: { status: 'error' as const, error: { file: [FILE_TOO_LARGE] } } }, { status: 413 })
  }
  const formData = await readForm(request, { maxBytes: MAX_FORM_BYTES })
  const form = (intent: Intent, target = '') => ({ intent, target })
  return dispatchForm(formData, {
    upload: () =>
      submitForm(formData, form('upload'), UploadSchema, async (value) => {
        await uploadMedia(actor, { ...value, fileName: value.file.name.slice(0, 120), bytes: new Uint8Array(await value.file.arrayBuffer()) })
        return backToLibrary('Uploaded', 'The site is making its files; the library shows it ready in a moment.')
      }),
    details: () =>
      submitForm(formData, form('details', String(formData.get('id'))), MediaDetailsSchema, async (value) => {
        await updateMediaDetails(actor, value)
        return backToLibrary('Saved')
      }),
    delete: () =>
      submitForm(formData, form('delete', String(formData.get('id'))), DeleteMediaSchema, async ({ id }) => {
        await deleteMedia(actor, id)
        return backToLibrary('Deleted')
      }),
  })
}

export default function MediaLibrary({ loaderData, actionData }: Route.ComponentProps) {
  const { items, posterOptions } = loaderData
  const resultFor = (intent: Intent, target = '') => (actionData?.intent === intent && actionData.target === target ? actionData.result : undefined)
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Media library</h1>
      <p className="mt-3 max-w-3xl text-muted">
        The lab's own photos and video loops for the public pages. The site makes each photo's sizes and formats itself and leaves behind everything a camera writes into a file (the place it was taken above
        all); the file as you upload it is never shown. A photo is used only once it has alt text, or you have marked it decorative.
      </p>
      <Panel id="upload" title="Upload" spacing="mt-8">
        <UploadForm lastResult={resultFor('upload')} />
      </Panel>
      <Panel id="library" title={`In the library (${items.length})`} spacing="mt-8">
        {items.length === 0 ? (
          <p className="text-muted">Nothing yet. Photos you upload appear here.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {items.map((item) => (
              <MediaRow key={`${item.id}-${JSON.stringify(item.defaults)}-${item.status}`} item={item} posterOptions={posterOptions} detailsResult={resultFor('details', String(item.id))} deleteResult={resultFor('delete', String(item.id))} />
            ))}
          </ul>
        )}
      </Panel>
    </section>
  )
}

type Field = FieldMetadata<string | undefined, Record<string, unknown>, string[]>
type Result = SubmissionResult<string[]> | undefined

/** "Decorative": an image that says nothing a visitor would miss, read by no screen reader. */
function DecorativeField({ field }: { field: Field }) {
  const { key, ...props } = getInputProps(field, { type: 'checkbox' })
  return (
    <div>
      <label className="inline-flex min-h-11 items-center gap-3 text-ink">
        <input key={key} {...props} className="h-5 w-5 accent-brand-700" />
        Decorative: it adds nothing a visitor would miss, so screen readers skip it
      </label>
      <FieldError field={field} />
    </div>
  )
}

const ALT_TEXT_HINT = `What the photo shows, for visitors who cannot see it, in up to ${ALT_TEXT_MAX} characters: "Coach Priya timing a swimmer at the pool's edge", not "photo".`

function UploadForm({ lastResult }: { lastResult: Result }) {
  const [form, fields] = useValidatedForm(UploadSchema, { lastResult, defaultValue: { collection: 'portrait' } })
  const navigation = useNavigation()
  const uploading = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'upload'
  const file = fields.file as unknown as Field
  const { key, ...fileProps } = getInputProps(file, { type: 'file' })
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-5">
      <input type="hidden" name="intent" value="upload" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <div>
        <label htmlFor={file.id} className="block text-sm font-semibold text-ink">
          Photo or video loop
        </label>
        <input key={key} {...fileProps} accept="image/jpeg,image/png,image/webp,image/heic,video/mp4" className="input mt-1" />
        <p id={file.descriptionId} className="mt-1 text-sm text-muted">
          Photos: JPEG, PNG or WebP straight from a phone or camera, up to {megabytes(IMAGE_MAX_BYTES)} and {IMAGE_MAX_PIXELS / 1_000_000} megapixels. Video loops: MP4 (H.264), {VIDEO_LOOP_MAX_SECONDS} seconds and{' '}
          {megabytes(VIDEO_LOOP_MAX_BYTES)} at most; they always play without sound.
        </p>
        <FieldError field={file} />
      </div>
      <div className="grid gap-5 md:grid-cols-2">
        <SelectField field={fields.collection} label="What it shows" options={COLLECTION_OPTIONS} />
        <TextField field={fields.title} label="Name in the library" optional hint="The file's name when left empty." />
      </div>
      <TextAreaField field={fields.altText} label="Alt text (optional now, needed before it is used)" note={ALT_TEXT_HINT} />
      <DecorativeField field={fields.decorative} />
      <button type="submit" className="btn-primary" disabled={uploading}>
        {uploading ? 'Uploading...' : 'Upload'}
      </button>
    </Form>
  )
}

type Row = Route.ComponentProps['loaderData']['items'][number]

const STATUS_TEXT: Record<LibraryItem['status'], string> = { processing: 'Being processed', ready: 'Ready', failed: 'Could not be processed' }

function MediaRow({ item, posterOptions, detailsResult, deleteResult }: { item: Row; posterOptions: Array<{ value: string; label: string }>; detailsResult: Result; deleteResult: Result }) {
  const described = item.defaults.altText !== '' || item.defaults.decorative === 'on'
  return (
    <li className="grid gap-4 py-6 md:grid-cols-[10rem_1fr]" aria-labelledby={`media-${item.id}-title`}>
      <div className="relative h-32 w-40 overflow-hidden rounded-lg bg-slate-100">
        {item.thumbnail ? (
          <img src={item.thumbnail} alt="" width={160} height={128} className="h-full w-full object-cover" />
        ) : item.video ? (
          <video src={item.video} muted controls preload="metadata" playsInline className="h-full w-full object-cover" aria-label={`Video: ${item.title}`} />
        ) : (
          <span className="flex h-full items-center justify-center p-2 text-center text-sm text-muted">No preview yet</span>
        )}
      </div>
      <div className="min-w-0 space-y-3">
        <div>
          <h3 id={`media-${item.id}-title`} className="font-bold break-words text-ink">
            {item.title}
          </h3>
          <p className="text-sm text-muted">
            {item.collection} · {item.size}
            {item.seconds !== null && ` · ${item.seconds} s${item.hasSound ? ' · has sound, always played muted' : ''}`}
          </p>
          <p className="mt-1 text-sm" role="status">
            <strong className={item.status === 'failed' ? 'text-red-700' : item.status === 'ready' ? 'text-green-800' : 'text-amber-800'}>{STATUS_TEXT[item.status]}</strong>
            {item.failure && `: ${item.failure}`}
            {item.status === 'ready' && !described && <span className="text-amber-800"> · needs alt text before it can be used</span>}
          </p>
          <p className="text-sm text-muted">{item.usedBy.length ? `Shown as ${item.usedBy.join(', ')}.` : 'Not shown anywhere yet.'}</p>
        </div>
        <DetailsForm item={item} posterOptions={posterOptions} lastResult={detailsResult} />
        <DeleteForm item={item} lastResult={deleteResult} />
      </div>
    </li>
  )
}

function DetailsForm({ item, posterOptions, lastResult }: { item: Row; posterOptions: Array<{ value: string; label: string }>; lastResult: Result }) {
  const [form, fields] = useValidatedForm(MediaDetailsSchema, { id: `media-${item.id}-details`, lastResult, defaultValue: item.defaults })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4" aria-label={`Details of ${item.title}`}>
      <input type="hidden" name="intent" value="details" />
      <input type="hidden" name="id" value={item.id} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextField field={fields.title} label="Name in the library" />
      <TextAreaField field={fields.altText} label="Alt text" note={ALT_TEXT_HINT} />
      <DecorativeField field={fields.decorative} />
      {item.kind === 'video' && <SelectField field={fields.posterId} label="Poster (shown before the video plays, and instead of it)" options={[{ value: '', label: 'No poster' }, ...posterOptions]} />}
      <button type="submit" name="intent" value="details" className="btn-secondary">
        Save<span className="sr-only"> the details of {item.title}</span>
      </button>
    </Form>
  )
}

function DeleteForm({ item, lastResult }: { item: Row; lastResult: Result }) {
  const [form] = useValidatedForm(DeleteMediaSchema, { id: `media-${item.id}-delete`, lastResult, defaultValue: { id: String(item.id) } })
  return (
    <details className="text-sm" open={Boolean(form.errors?.length)}>
      <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-red-700">Delete…</summary>
      <Form method="post" {...getFormProps(form)} className="mt-2 space-y-2">
        <input type="hidden" name="id" value={item.id} />
        <FormAlert id={form.errorId} errors={form.errors} />
        <p className="text-ink">Its files go too. A photo shown on the site cannot be deleted until another is chosen there.</p>
        <button type="submit" name="intent" value="delete" className="btn-secondary">
          Delete {item.title}
        </button>
      </Form>
    </details>
  )
}
