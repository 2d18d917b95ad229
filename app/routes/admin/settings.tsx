import { getFormProps, getInputProps, type FieldMetadata, type SubmissionResult } from '@conform-to/react'
import { useEffect, type ComponentProps } from 'react'
import { Form, href, useLocation } from 'react-router'
import type { Route } from './+types/settings'
import { FieldError, FormAlert, SaveButton as AnySaveButton, TextAreaField, TextField, useValidatedForm } from '~/components/form-fields'
import { Panel as AnyPanel } from '~/components/panel'
import { PortraitField, type PhotoOption } from '~/components/portrait-field'
import { StaffTable } from '~/components/staff-table'
import { requireAdmin } from '~/web/auth.server'
import { basisPointsToPercentInput, formatRupees, paiseToRupeesInput } from '~/lib/money'
import { usableMedia, usablePhotos } from '~/modules/media/media.server'
import { redirectWithToast } from '~/web/toast.server'
import {
  BannerSchema,
  CoachSchema,
  FigureThresholdsSchema,
  ContactSchema,
  GrievanceOfficerSchema,
  GstSchema,
  PagePicturesSchema,
  PoliciesSchema,
  PriceSchema,
  TeamMemberSchema,
} from '~/modules/site/schemas'
import { SETTINGS_FORM_IDS } from '~/modules/site/launch-gaps'
import { mediaUseOf, PAGE_PICTURE_SLOTS, PAGE_PICTURES } from '~/modules/site/page-pictures'
import { catalogueForStaff, setBanner, settingsForStaff, updateCataloguePrice, updateCoach, updateContactDetails, updateFigureThresholds, updateGrievanceOfficer, updateGstDetails, updatePagePictures, updatePolicies, updateTeamMember } from '~/modules/site/staff.server'
import { FIGURE_NAMES, figuresToShow, figureText, type FigureName } from '~/modules/site/figures'
import { countFigures } from '~/modules/site/figures.server'
import { readForm } from '~/web/form-data.server'
import { dispatchForm, NOTHING_TO_SAVE, submitForm } from '~/web/page-forms.server'
import { notFoundUnless } from '~/web/refusals.server'

export const meta: Route.MetaFunction = () => [{ title: 'Catalogue & settings | Admin' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const [items, settings, portraits, counts, pictureOptions] = await Promise.all([
    catalogueForStaff(),
    settingsForStaff(),
    usablePhotos('portrait'),
    countFigures(),
    Promise.all(PAGE_PICTURE_SLOTS.map((slot) => usableMedia(mediaUseOf(slot)))),
  ])
  const shown = figuresToShow(counts, settings)
  return {
    items: items.map((item) => ({
      code: item.code,
      label: item.tagline ? `${item.name} (${item.tagline})` : item.name,
      current: item.regularPricePaise === null ? formatRupees(item.pricePaise) : `${formatRupees(item.pricePaise)}, regular ${formatRupees(item.regularPricePaise)}`,
      defaults: { code: item.code, price: paiseToRupeesInput(item.pricePaise), regularPrice: item.regularPricePaise === null ? '' : paiseToRupeesInput(item.regularPricePaise) },
    })),
    bannerVisible: settings.bannerVisible,
    policies: { reportDelivery: settings.reportDelivery, refundPolicy: settings.refundPolicy, reanalysisMonths: String(settings.reanalysisMonths) },
    contact: {
      sessionLocation: settings.sessionLocation,
      venueName: settings.venueName,
      postalAddress: settings.postalAddress,
      phone: settings.phone,
      phoneHours: settings.phoneHours,
      supportEmail: settings.supportEmail,
      infoEmail: settings.infoEmail,
      websiteUrl: settings.websiteUrl,
      whatsappNumber: settings.whatsappNumber,
      ...settings.socialLinks,
    },
    grievance: { grievanceOfficerName: settings.grievanceOfficerName, grievanceOfficerEmail: settings.grievanceOfficerEmail },
    gst: { legalName: settings.legalName, gstin: settings.gstin, gstRate: basisPointsToPercentInput(settings.gstRateBasisPoints) },
    coach: { defaults: { name: settings.coach.name, credentials: settings.coach.credentials, photoId: photoInput(settings.coach.photoId) }, placeholder: settings.coach.placeholder },
    team: settings.team.map((member, index) => ({
      defaults: { index: String(index), name: member.name, role: member.role, bio: member.bio, photoId: photoInput(member.photoId) },
      placeholder: member.placeholder,
    })),
    portraits: photoOptions(portraits),
    pictures: {
      defaults: Object.fromEntries(PAGE_PICTURE_SLOTS.map((slot) => [slot, photoInput(settings.pagePictures[slot])])),
      options: Object.fromEntries(PAGE_PICTURE_SLOTS.map((slot, index) => [slot, photoOptions(pictureOptions[index]!)])),
    },
    figures: {
      defaults: { swimmersAnalysedThreshold: String(settings.swimmersAnalysedThreshold), analysesDeliveredThreshold: String(settings.analysesDeliveredThreshold), campsRunThreshold: String(settings.campsRunThreshold) },
      // Each count as the records say now, and whether the home page shows it (a few minutes' delay aside).
      now: Object.fromEntries(FIGURE_NAMES.map((name) => [name, { text: figureText(name, counts[name]).join(' '), shown: shown[name] !== undefined }])) as Record<FigureName, { text: string; shown: boolean }>,
    },
  }
}

const photoOptions = (items: { id: number; title: string }[]): PhotoOption[] => items.map((item) => ({ value: String(item.id), label: item.title }))

/** A chosen photo as the select's value: its id, or '' for "No photo". */
const photoInput = (photoId: number | null | undefined) => (photoId ? String(photoId) : '')

type Intent = 'price' | 'policies' | 'contact' | 'gst' | 'grievance' | 'coach' | 'member' | 'banner' | 'figures' | 'pictures'

/** Where each form sits on the page, so the browser comes back to it after saving. */
const ANCHORS: Record<Intent, string> = { price: 'prices', policies: 'policies', contact: 'contact', gst: 'gst', grievance: 'grievance', coach: 'people', member: 'people', banner: 'banner', figures: 'figures', pictures: 'pictures' }

/** Back to the form that was saved, saying whether anything changed. */
function savedAt(intent: Intent, changed: boolean, saved: string) {
  return redirectWithToast(`${href('/admin/settings')}#${ANCHORS[intent]}`, changed ? { type: 'success', title: saved } : NOTHING_TO_SAVE)
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const actor = { id: admin.id, email: admin.email }
  const formData = await readForm(request)
  // Which of the page's forms an answer belongs to: the kind, and the item or member for repeated ones.
  const form = (intent: Intent, target = '') => ({ intent, target })
  return dispatchForm(formData, {
    price: async () => {
      // An item not in the catalogue has no form on the page to show a message in, whatever else was sent.
      notFoundUnless((await catalogueForStaff()).some((item) => item.code === formData.get('code')))
      return submitForm(formData, form('price', String(formData.get('code'))), PriceSchema, async (value) =>
        savedAt('price', await updateCataloguePrice(actor, { code: value.code, pricePaise: value.price, regularPricePaise: value.regularPrice ?? null }), 'Price saved'),
      )
    },
    policies: () => submitForm(formData, form('policies'), PoliciesSchema, async (value) => savedAt('policies', await updatePolicies(actor, value), 'Policy texts saved')),
    contact: () => submitForm(formData, form('contact'), ContactSchema, async (value) => savedAt('contact', await updateContactDetails(actor, value), 'Contact details saved')),
    gst: () => submitForm(formData, form('gst'), GstSchema, async (value) => savedAt('gst', await updateGstDetails(actor, value), 'GST details saved')),
    grievance: () => submitForm(formData, form('grievance'), GrievanceOfficerSchema, async (value) => savedAt('grievance', await updateGrievanceOfficer(actor, value), 'Grievance officer saved')),
    figures: () => submitForm(formData, form('figures'), FigureThresholdsSchema, async (value) => savedAt('figures', await updateFigureThresholds(actor, value), 'Thresholds saved')),
    pictures: () => submitForm(formData, form('pictures'), PagePicturesSchema, async (value) => savedAt('pictures', await updatePagePictures(actor, value), 'Pictures saved')),
    coach: () => submitForm(formData, form('coach'), CoachSchema, async (value) => savedAt('coach', await updateCoach(actor, value), 'Coach saved')),
    member: async () => {
      notFoundUnless((await settingsForStaff()).team.some((_member, index) => String(index) === formData.get('index')))
      return submitForm(formData, form('member', String(formData.get('index'))), TeamMemberSchema, async (value) => savedAt('member', await updateTeamMember(actor, value), 'Team member saved'))
    },
    banner: () =>
      submitForm(formData, form('banner'), BannerSchema, async ({ visible }) => {
        await setBanner(actor, visible)
        return redirectWithToast(`${href('/admin/settings')}#${ANCHORS.banner}`, {
          type: 'success',
          title: visible ? 'The banner is on' : 'The banner is off',
          description: 'Pages that are open change by themselves.',
        })
      }),
  })
}

export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { items, bannerVisible, policies, contact, gst, grievance, coach, team, portraits, figures, pictures } = loaderData
  const resultFor = (intent: Intent, target = '') => (actionData?.intent === intent && actionData.target === target ? actionData.result : undefined)
  const { hash } = useLocation()
  // The overview's launch checklist links to one field (#contact-details-phone): the cursor goes into it, ready to type.
  useEffect(() => {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) target.focus()
  }, [hash])
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Catalogue &amp; settings</h1>
      <p className="mt-3 text-muted">Every page of the site shows these values; a change appears on it straight away.</p>

      <Panel id="banner" title="Camp banner">
        <BannerForm visible={bannerVisible} />
      </Panel>

      <Panel id="prices" title="Prices" lead="In rupees, GST included. The regular price is shown struck through next to the price; leave it empty for none.">
        <StaffTable caption="Catalogue prices" columns={['Item', 'Price (₹)', 'Regular price (₹)', { label: 'Save', hidden: true }]} inset>
          {items.map((item) => (
            <PriceRow key={JSON.stringify(item.defaults)} item={item} lastResult={resultFor('price', item.code)} />
          ))}
        </StaffTable>
      </Panel>

      <Panel id="policies" title="Policies" lead="Each text completes a sentence on the site, in e-mails and on receipts; the months say when a swimmer is invited back for the next analysis.">
        <PoliciesForm key={JSON.stringify(policies)} defaults={policies} lastResult={resultFor('policies')} />
      </Panel>

      <Panel id="contact" title="Contact details" lead="Values in [square brackets] are placeholders: the site shows them as still to be supplied and makes no link of them.">
        <ContactForm key={JSON.stringify(contact)} defaults={contact} lastResult={resultFor('contact')} />
      </Panel>

      <Panel id="gst" title="GST details" lead="Receipts are tax invoices once a GSTIN is set (a bill of supply at a 0% rate), and plain receipts without one.">
        <GstForm key={JSON.stringify(gst)} defaults={gst} lastResult={resultFor('gst')} />
      </Panel>

      <Panel id="grievance" title="Grievance officer" lead="The person the privacy policy names for questions and complaints about personal data. Until set, the policy shows a placeholder.">
        <GrievanceForm key={JSON.stringify(grievance)} defaults={grievance} lastResult={resultFor('grievance')} />
      </Panel>

      <Panel id="figures" title="Numbers on the site" lead="The home page shows how many swimmers the lab has analysed, how many analyses it has delivered and how many camps it has run, counted from the lab's own records. Each number appears only once it reaches the threshold you set here; 0 never shows it.">
        <FiguresForm key={JSON.stringify(figures)} figures={figures} lastResult={resultFor('figures')} />
      </Panel>

      <Panel id="people" title="Coach and team" lead="The coach appears in the camp banner, the team on the about page. A placeholder stays marked as one until you save its details.">
        <CoachForm key={JSON.stringify(coach)} coach={coach} portraits={portraits} lastResult={resultFor('coach')} />
        {team.map((member) => (
          <TeamMemberForm key={JSON.stringify(member)} member={member} portraits={portraits} lastResult={resultFor('member', member.defaults.index)} />
        ))}
      </Panel>

      <Panel id="pictures" title="Pictures on the pages" lead="The lab's own photos and video loop where the home and about pages show one; a place left empty shows the site's abstract artwork. Each lists the ready, described items of the media library that suit it.">
        <PicturesForm key={JSON.stringify(pictures)} pictures={pictures} lastResult={resultFor('pictures')} />
      </Panel>
    </section>
  )
}

function PicturesForm({ pictures, lastResult }: { pictures: Route.ComponentProps['loaderData']['pictures']; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useValidatedForm(PagePicturesSchema, { lastResult, defaultValue: pictures.defaults })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <input type="hidden" name="intent" value="pictures" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-5 md:grid-cols-2">
        {PAGE_PICTURE_SLOTS.map((slot) => (
          <PortraitField
            key={slot}
            field={fields[slot]}
            portraits={pictures.options[slot] ?? []}
            label={PAGE_PICTURES[slot].label}
            none={PAGE_PICTURES[slot].kind === 'loop' ? 'No video loop' : 'The site’s artwork'}
            hint={PAGE_PICTURES[slot].hint}
          />
        ))}
      </div>
      <SaveButton intent="pictures">Save the pictures</SaveButton>
    </Form>
  )
}

/** The settings' panels stand further apart than an analysis's. */
const Panel = (props: Omit<ComponentProps<typeof AnyPanel>, 'spacing'>) => <AnyPanel spacing="mt-8" {...props} />

const SaveButton = AnySaveButton<Intent>

function BannerForm({ visible }: { visible: boolean }) {
  return (
    <Form method="post" className="flex flex-wrap items-center gap-4">
      <input type="hidden" name="intent" value="banner" />
      <input type="hidden" name="visible" value={visible ? 'false' : 'true'} />
      <p className="text-ink" role="status">
        The camp banner is <strong>{visible ? 'on' : 'off'}</strong>: {visible ? 'every page shows it.' : 'no page shows it.'}
      </p>
      <SaveButton intent="banner" className={visible ? 'btn-secondary' : 'btn-primary'}>
        {visible ? 'Turn the banner off' : 'Turn the banner on'}
      </SaveButton>
    </Form>
  )
}

type Field = FieldMetadata<string | undefined, Record<string, unknown>, string[]>

/** A price in a table cell: the column header is its visible label, the hidden one names the item. */
function PriceCell({ field, label }: { field: Field; label: string }) {
  const { key, ...props } = getInputProps(field, { type: 'text' })
  return (
    <td className="px-3 py-3 align-top">
      <label htmlFor={field.id} className="sr-only">
        {label}
      </label>
      <input key={key} {...props} inputMode="decimal" autoComplete="off" className="input min-w-28" />
      <FieldError field={field} />
    </td>
  )
}

type PriceItem = Route.ComponentProps['loaderData']['items'][number]

function PriceRow({ item, lastResult }: { item: PriceItem; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useValidatedForm(PriceSchema, { lastResult, defaultValue: item.defaults })
  return (
    <tr className="border-t border-slate-200">
      <th scope="row" className="py-3 pr-3 align-top font-normal">
        <span className="block font-semibold text-ink">{item.label}</span>
        <span className="block text-muted">Now {item.current}</span>
      </th>
      <PriceCell field={fields.price} label={`Price of ${item.label}, in rupees`} />
      <PriceCell field={fields.regularPrice} label={`Regular price of ${item.label}, in rupees (optional)`} />
      <td className="py-3 pl-3 align-top">
        <Form method="post" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="price" />
          <input type="hidden" name="code" value={item.code} />
          <FormAlert id={form.errorId} errors={form.errors} />
          <SaveButton intent="price" target={{ code: item.code }}>
            Save<span className="sr-only"> the price of {item.label}</span>
          </SaveButton>
        </Form>
      </td>
    </tr>
  )
}

type FormProps<Defaults> = { defaults: Defaults; lastResult: SubmissionResult<string[]> | undefined }

function PoliciesForm({ defaults, lastResult }: FormProps<{ reportDelivery: string; refundPolicy: string; reanalysisMonths: string }>) {
  const [form, fields] = useValidatedForm(PoliciesSchema, { lastResult, defaultValue: defaults })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <input type="hidden" name="intent" value="policies" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <TextField field={fields.reportDelivery} label="Report delivery" hint="Completes “Your personalized report arrives …”, for example “within 48 hours”. Reports are flagged overdue after the hours or days it names." />
      <TextField field={fields.refundPolicy} label="Refunds" hint="Completes “Refunds are credited …”, for example “within 7 business days, to the original payment method”." />
      <TextField field={fields.reanalysisMonths} label="Invite the swimmer back after (months)" inputMode="numeric" hint="From 1 to 24. When an analysis is published, the swimmer's next one is due this many months later." />
      <SaveButton intent="policies">Save the policy texts</SaveButton>
    </Form>
  )
}

function ContactForm({ defaults, lastResult }: FormProps<Record<string, string>>) {
  const [form, fields] = useValidatedForm(ContactSchema, { id: SETTINGS_FORM_IDS.contact, lastResult, defaultValue: defaults })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <input type="hidden" name="intent" value="contact" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-5 md:grid-cols-2">
        <TextField field={fields.sessionLocation} label="Session location" hint="Where sessions take place, in bookings, e-mails and receipts." />
        <TextField field={fields.venueName} label="Venue" />
        <TextField field={fields.postalAddress} label="Postal address" />
        <TextField field={fields.phone} label="Phone" type="tel" inputMode="tel" />
        <TextField field={fields.phoneHours} label="Phone hours" />
        <TextField field={fields.supportEmail} label="Support e-mail" inputMode="email" />
        <TextField field={fields.infoEmail} label="General e-mail" inputMode="email" />
        <TextField field={fields.websiteUrl} label="Website" optional placeholder="https://" />
        <TextField field={fields.whatsappNumber} label="WhatsApp number" type="tel" inputMode="tel" optional hint="An Indian mobile's 10 digits, or + and the country code, for example +91 98450 12345." />
        <TextField field={fields.linkedin} label="LinkedIn page" optional placeholder="https://" />
        <TextField field={fields.instagram} label="Instagram page" optional placeholder="https://" />
        <TextField field={fields.twitter} label="X (Twitter) page" optional placeholder="https://" />
      </div>
      <SaveButton intent="contact">Save the contact details</SaveButton>
    </Form>
  )
}

function GstForm({ defaults, lastResult }: FormProps<{ legalName: string; gstin: string; gstRate: string }>) {
  const [form, fields] = useValidatedForm(GstSchema, { id: SETTINGS_FORM_IDS.gst, lastResult, defaultValue: defaults })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <input type="hidden" name="intent" value="gst" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-5 md:grid-cols-3">
        <TextField field={fields.legalName} label="Registered name" />
        <TextField field={fields.gstin} label="GSTIN" optional hint="15 characters, for example 29ABCDE1234F1Z5." />
        <TextField field={fields.gstRate} label="GST rate (%)" hint="Up to 2 decimals, for example 18." />
      </div>
      <SaveButton intent="gst">Save the GST details</SaveButton>
    </Form>
  )
}

function GrievanceForm({ defaults, lastResult }: FormProps<{ grievanceOfficerName: string; grievanceOfficerEmail: string }>) {
  const [form, fields] = useValidatedForm(GrievanceOfficerSchema, { id: SETTINGS_FORM_IDS.grievance, lastResult, defaultValue: defaults })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <input type="hidden" name="intent" value="grievance" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-5 md:grid-cols-2">
        <TextField field={fields.grievanceOfficerName} label="Name" />
        <TextField field={fields.grievanceOfficerEmail} label="E-mail" inputMode="email" />
      </div>
      <SaveButton intent="grievance">Save the grievance officer</SaveButton>
    </Form>
  )
}

type FiguresProps = { figures: Route.ComponentProps['loaderData']['figures']; lastResult: SubmissionResult<string[]> | undefined }

const THRESHOLD_LABELS: Record<FigureName, string> = { swimmersAnalysed: 'Swimmers analysed: show from', analysesDelivered: 'Analyses delivered: show from', campsRun: 'Camps run: show from' }

function FiguresForm({ figures, lastResult }: FiguresProps) {
  const [form, fields] = useValidatedForm(FigureThresholdsSchema, { lastResult, defaultValue: figures.defaults })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-5">
      <input type="hidden" name="intent" value="figures" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-5 md:grid-cols-3">
        {FIGURE_NAMES.map((name) => {
          const { text, shown } = figures.now[name]
          return (
            <TextField
              key={name}
              field={fields[`${name}Threshold`]}
              label={THRESHOLD_LABELS[name]}
              inputMode="numeric"
              hint={`Now ${text}: ${shown ? 'shown on the home page' : 'not shown'}.`}
            />
          )
        })}
      </div>
      <SaveButton intent="figures">Save the thresholds</SaveButton>
    </Form>
  )
}

function PlaceholderBadge({ placeholder }: { placeholder: boolean }) {
  if (!placeholder) return null
  return <span className="ml-2 rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900">Placeholder</span>
}

const PORTRAIT_HINT = 'Photos come from the media library (Team and coach portraits, with alt text).'

type CoachProps = { coach: { defaults: { name: string; credentials: string; photoId: string }; placeholder: boolean }; portraits: PhotoOption[]; lastResult: SubmissionResult<string[]> | undefined }

function CoachForm({ coach, portraits, lastResult }: CoachProps) {
  const [form, fields] = useValidatedForm(CoachSchema, { id: SETTINGS_FORM_IDS.coach, lastResult, defaultValue: coach.defaults })
  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <h3 className="font-semibold text-ink">
        Camp coach
        <PlaceholderBadge placeholder={coach.placeholder} />
      </h3>
      <input type="hidden" name="intent" value="coach" />
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-5 md:grid-cols-2">
        <TextField field={fields.name} label="Name" />
        <TextField field={fields.credentials} label="Credentials" />
      </div>
      <PortraitField field={fields.photoId} portraits={portraits} hint={PORTRAIT_HINT} />
      <SaveButton intent="coach">Save the coach</SaveButton>
    </Form>
  )
}

type TeamMember = { defaults: { index: string; name: string; role: string; bio: string; photoId: string }; placeholder: boolean }

function TeamMemberForm({ member, portraits, lastResult }: { member: TeamMember; portraits: PhotoOption[]; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useValidatedForm(TeamMemberSchema, { id: SETTINGS_FORM_IDS.member(Number(member.defaults.index)), lastResult, defaultValue: member.defaults })
  const position = Number(member.defaults.index) + 1
  return (
    <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4 border-t border-slate-200 pt-6">
      <h3 className="font-semibold text-ink">
        Team member {position}
        <PlaceholderBadge placeholder={member.placeholder} />
      </h3>
      <input type="hidden" name="intent" value="member" />
      <input type="hidden" name="index" value={member.defaults.index} />
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-5 md:grid-cols-2">
        <TextField field={fields.name} label="Name" />
        <TextField field={fields.role} label="Role" />
      </div>
      <TextAreaField field={fields.bio} label="Short bio" />
      <PortraitField field={fields.photoId} portraits={portraits} hint={PORTRAIT_HINT} />
      <SaveButton intent="member" target={{ index: member.defaults.index }}>
        Save team member {position}
      </SaveButton>
    </Form>
  )
}
