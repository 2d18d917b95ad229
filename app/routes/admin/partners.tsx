import { getFormProps, getSelectProps, type FieldMetadata, type SubmissionResult } from '@conform-to/react'
import { Form, href } from 'react-router'
import type { Route } from './+types/partners'
import { FieldError, FormAlert, SaveButton as AnySaveButton, SelectField, TextField, useValidatedForm } from '~/components/form-fields'
import { Panel } from '~/components/panel'
import { MediaLibraryHint } from '~/components/portrait-field'
import { ResponsivePicture } from '~/components/picture'
import { publicPictures, usablePhotos } from '~/modules/media/media.server'
import { addPartner, deletePartner, movePartner, partnersForStaff, setPartnerShown, updatePartner } from '~/modules/partners/partners.server'
import { MovePartnerSchema, PartnerDetailsSchema, PartnerIdSchema, PartnerSchema, ShowPartnerSchema } from '~/modules/partners/schemas'
import { requireAdmin } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { dispatchForm, NOTHING_TO_SAVE, submitForm } from '~/web/page-forms.server'
import { redirectWithToast } from '~/web/toast.server'

export const meta: Route.MetaFunction = () => [{ title: 'Partners and venues | Admin' }, { name: 'robots', content: 'noindex' }]

const KIND_OPTIONS = [
  { value: 'partner', label: 'Partner (logo from the Partner logos)' },
  { value: 'venue', label: 'Venue (photo from the Venue photos)' },
]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const [list, partnerLogos, venuePhotos, pictures] = await Promise.all([partnersForStaff(), usablePhotos('partner'), usablePhotos('venue'), publicPictures()])
  const option = (photo: { id: number; title: string }) => ({ value: String(photo.id), label: photo.title })
  return {
    partners: list.map((partner, index) => {
      const picture = (partner.logoId && pictures.get(partner.logoId)) || null
      return {
        id: partner.id,
        kind: partner.kind,
        name: partner.name,
        link: partner.link,
        shown: partner.shown,
        first: index === 0,
        last: index === list.length - 1,
        // The staff page names the partner beside its logo: the logo itself says nothing more here.
        picture: picture && { ...picture, alt: '', placeholder: null },
        defaults: { id: String(partner.id), kind: partner.kind, name: partner.name, link: partner.link ?? '', logoId: partner.logoId ? String(partner.logoId) : '' },
      }
    }),
    logos: { partner: partnerLogos.map(option), venue: venuePhotos.map(option) },
  }
}

type Intent = 'add' | 'edit' | 'move' | 'show' | 'delete'

const backToList = (title: string, description?: string) => redirectWithToast(href('/admin/partners'), { type: 'success', title, description })

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const actor = { id: admin.id, email: admin.email }
  const formData = await readForm(request)
  const form = (intent: Intent) => ({ intent, target: intent === 'add' ? '' : String(formData.get('id')) })
  return dispatchForm(formData, {
    add: () =>
      submitForm(formData, form('add'), PartnerSchema, async (value) => {
        await addPartner(actor, value)
        return backToList('Added', `${value.name} is shown at the end of the list.`)
      }),
    edit: () =>
      submitForm(formData, form('edit'), PartnerDetailsSchema, async ({ id, ...value }) =>
        (await updatePartner(actor, id, value)) ? backToList('Saved') : redirectWithToast(href('/admin/partners'), NOTHING_TO_SAVE),
      ),
    move: () =>
      submitForm(formData, form('move'), MovePartnerSchema, async ({ id, direction }) => {
        await movePartner(actor, id, direction)
        return backToList(direction === 'up' ? 'Moved up' : 'Moved down')
      }),
    show: () =>
      submitForm(formData, form('show'), ShowPartnerSchema, async ({ id, shown }) => {
        await setPartnerShown(actor, id, shown)
        return backToList(shown ? 'Shown on the site' : 'Hidden from the site')
      }),
    delete: () =>
      submitForm(formData, form('delete'), PartnerIdSchema, async ({ id }) => {
        const name = await deletePartner(actor, id)
        return backToList('Deleted', `${name} is no longer on the list. Its logo stays in the media library.`)
      }),
  })
}

const SaveButton = AnySaveButton<Intent>

export default function AdminPartners({ loaderData, actionData }: Route.ComponentProps) {
  const { partners, logos } = loaderData
  const resultFor = (intent: Intent, target = '') => (actionData?.intent === intent && actionData.target === target ? actionData.result : undefined)
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Partners and venues</h1>
      <p className="mt-3 max-w-3xl text-muted">
        The home page and the about page show each partner's logo and each venue's photo, in this order, linked to their site when you give its address. A logo comes from the media library once it is ready
        and described.
      </p>
      <Panel id="add" title="Add a partner or venue" spacing="mt-8">
        <PartnerForm id="partner-new" intent="add" logos={logos} defaults={{ kind: 'partner' }} lastResult={resultFor('add')} />
      </Panel>
      <Panel id="list" title={`On the site (${partners.length})`} spacing="mt-8">
        {partners.length === 0 ? (
          <p className="text-muted">None yet: the pages show no partners or venues.</p>
        ) : (
          <ol className="divide-y divide-slate-200">
            {partners.map((partner) => (
              <PartnerRow key={`${partner.id}-${JSON.stringify(partner.defaults)}-${partner.shown}`} partner={partner} logos={logos} resultFor={resultFor} />
            ))}
          </ol>
        )}
      </Panel>
    </section>
  )
}

type Field = FieldMetadata<string | undefined, Record<string, unknown>, string[]>
type Result = SubmissionResult<string[]> | undefined
type Option = { value: string; label: string }
type Logos = { partner: Option[]; venue: Option[] }
type Row = Route.ComponentProps['loaderData']['partners'][number]

/**
 * The logo, from the library's usable partner logos and venue photos; saving checks that it is of
 * the kind chosen. A logo chosen before that is no longer usable stays listed, so saving the form
 * does not drop it unseen: the save then says why it cannot be shown.
 */
function LogoField({ field, logos }: { field: Field; logos: Logos }) {
  const { key, ...props } = getSelectProps(field, { ariaDescribedBy: field.descriptionId })
  const current = field.initialValue
  const usable = [...logos.partner, ...logos.venue].some((logo) => logo.value === current)
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-semibold text-ink">
        Logo
      </label>
      <select key={key} {...props} className="input mt-1">
        <option value="">Choose…</option>
        {current && !usable && <option value={current}>A photo that cannot be shown (not ready, or without alt text)</option>}
        <optgroup label="Partner logos">
          {logos.partner.map((logo) => (
            <option key={logo.value} value={logo.value}>
              {logo.label}
            </option>
          ))}
        </optgroup>
        <optgroup label="Venue photos">
          {logos.venue.map((logo) => (
            <option key={logo.value} value={logo.value}>
              {logo.label}
            </option>
          ))}
        </optgroup>
      </select>
      <MediaLibraryHint field={field}>A partner's logo from the Partner logos, a venue's from the Venue photos, each with alt text.</MediaLibraryHint>
      <FieldError field={field} />
    </div>
  )
}

type PartnerFormProps = { id: string; intent: 'add' | 'edit'; logos: Logos; defaults: Record<string, string>; lastResult: Result; name?: string }

function PartnerForm({ id, intent, logos, defaults, lastResult, name }: PartnerFormProps) {
  const [form, fields] = useValidatedForm(intent === 'add' ? PartnerSchema : PartnerDetailsSchema, { id, lastResult, defaultValue: defaults })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <input type="hidden" name="intent" value={intent} />
      {intent === 'edit' && <input type="hidden" name="id" value={defaults.id} />}
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-5 md:grid-cols-2">
        <SelectField field={fields.kind} label="Kind" options={KIND_OPTIONS} />
        <TextField field={fields.name} label="Name" />
        <TextField field={fields.link} label="Website" optional placeholder="https://" hint="Its logo links there. An address starting with https://." />
        <LogoField field={fields.logoId} logos={logos} />
      </div>
      {intent === 'add' ? (
        <SaveButton intent="add">Add it</SaveButton>
      ) : (
        <SaveButton intent="edit" target={{ id: defaults.id ?? '' }}>
          Save<span className="sr-only"> the details of {name}</span>
        </SaveButton>
      )}
    </Form>
  )
}

function PartnerRow({ partner, logos, resultFor }: { partner: Row; logos: Logos; resultFor: (intent: Intent, target?: string) => Result }) {
  const target = String(partner.id)
  const editResult = resultFor('edit', target)
  const refusals = [resultFor('move', target), resultFor('show', target), resultFor('delete', target)].flatMap((result) => (result?.error?.[''] as string[] | undefined) ?? [])
  return (
    <li className="grid gap-4 py-6 md:grid-cols-[10rem_1fr]" aria-labelledby={`partner-${partner.id}-name`}>
      <div className="flex h-20 w-40 items-center justify-center rounded-lg bg-slate-100">
        {partner.picture ? <ResponsivePicture picture={partner.picture} sizes="160px" className="h-20 w-40" imgClassName="h-full w-full object-contain" /> : <span className="p-2 text-center text-sm text-muted">No logo to show</span>}
      </div>
      <div className="min-w-0 space-y-3">
        <div>
          <h3 id={`partner-${partner.id}-name`} className="font-bold break-words text-ink">
            {partner.name}
          </h3>
          <p className="text-sm text-muted">
            {partner.kind === 'venue' ? 'Venue' : 'Partner'} · {partner.link ? <span className="break-all">{partner.link}</span> : 'no website'}
          </p>
          <p className="mt-1 text-sm" role="status">
            <strong className={partner.shown ? 'text-green-800' : 'text-amber-800'}>{partner.shown ? 'Shown' : 'Hidden'}</strong>
            {!partner.picture && <span className="text-amber-800"> · its logo cannot be shown (not ready, or without alt text): the pages show its name instead</span>}
          </p>
        </div>
        <FormAlert id={`partner-${partner.id}-alert`} errors={refusals} />
        <div className="flex flex-wrap gap-3">
          {!partner.first && <MoveButton partner={partner} direction="up" />}
          {!partner.last && <MoveButton partner={partner} direction="down" />}
          <Form method="post">
            <input type="hidden" name="intent" value="show" />
            <input type="hidden" name="id" value={partner.id} />
            <input type="hidden" name="shown" value={partner.shown ? 'false' : 'true'} />
            <SaveButton intent="show" target={{ id: target }} className="btn-secondary">
              {partner.shown ? 'Hide' : 'Show'}
              <span className="sr-only"> {partner.name}</span>
            </SaveButton>
          </Form>
        </div>
        <details className="text-sm" open={Boolean(editResult?.error)}>
          <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-brand-700">
            Edit<span className="sr-only"> {partner.name}</span>…
          </summary>
          <div className="mt-2">
            <PartnerForm id={`partner-${partner.id}`} intent="edit" logos={logos} defaults={partner.defaults} lastResult={editResult} name={partner.name} />
          </div>
        </details>
        <details className="text-sm">
          <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold text-red-700">
            Delete<span className="sr-only"> {partner.name}</span>…
          </summary>
          <Form method="post" className="mt-2 space-y-2">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={partner.id} />
            <p className="text-ink">It goes from the list and the pages; its logo stays in the media library.</p>
            <SaveButton intent="delete" target={{ id: target }} className="btn-secondary">
              Delete {partner.name}
            </SaveButton>
          </Form>
        </details>
      </div>
    </li>
  )
}

function MoveButton({ partner, direction }: { partner: Row; direction: 'up' | 'down' }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="id" value={partner.id} />
      <input type="hidden" name="direction" value={direction} />
      <SaveButton intent="move" target={{ id: String(partner.id), direction }} pendingLabel="Moving..." className="btn-secondary">
        Move {direction}
        <span className="sr-only"> {partner.name}</span>
      </SaveButton>
    </Form>
  )
}
