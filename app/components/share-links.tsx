import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { useRef, useState } from 'react'
import { Form, Link } from 'react-router'
import { FormAlert, HoneypotField, PendingButton, RadioGroupField, SelectField, TextField, useLazyValidatedForm, type FieldConstraints } from './form-controls'
import { DEFAULT_SHARE_DAYS, SHARE_DAYS, SHARE_SCOPES } from '~/modules/analyses/share-choices'
import { useHydrated } from '~/web/use-hydrated'

export type ShareActionData = { result: SubmissionResult<string[]>; created: { url: string; expires: string; emailedTo: string | null; whatsApp: string } | null } | undefined

const DAY_OPTIONS = SHARE_DAYS.map((days) => ({ value: days, label: `${days} days` }))

/** Where the list of the links made for a swimmer is, from any page that makes one. */
export const SHARED_LINKS_ANCHOR = 'shared-links'

/**
 * The form that makes a link for a coach: what it shows (when the page is one analysis), for how
 * long, and, if given, the coach's address to e-mail it to. The new link is shown once, after it,
 * to copy or send on WhatsApp. `linksHref` leads to the list of the links made, to revoke one.
 * `constraint` is the loader's SHARE_FORM_CONSTRAINT: the rules that check the form load after the page shows.
 */
export function ShareForm({
  swimmerFirstName,
  analysisPage,
  actionData,
  constraint,
  linksHref = null,
}: {
  swimmerFirstName: string
  analysisPage: boolean
  actionData: ShareActionData
  constraint: FieldConstraints
  linksHref?: string | null
}) {
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/analyses/share-schemas').then((schemas) => schemas.ShareLinkSchema), {
    id: 'share-link',
    constraint,
    lastResult: actionData?.result,
    defaultValue: { scope: analysisPage ? 'analysis' : 'swimmer', days: DEFAULT_SHARE_DAYS },
  })
  const created = actionData?.created
  return (
    <section aria-labelledby="share-heading" className="card p-5 shadow-sm sm:p-6">
      <h2 id="share-heading" className="text-xl font-bold text-brand-900">
        Share with a coach
      </h2>
      <p className="mt-1 text-sm text-muted">A link that shows {swimmerFirstName}’s results, and nothing else of your account, to whoever has it, until it expires or you revoke it.</p>
      {created && <NewLink key={created.url} created={created} />}
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        <HoneypotField />
        <FormAlert id={form.errorId} errors={form.errors} />
        {analysisPage ? <RadioGroupField field={fields.scope} legend="The link shows" options={SHARE_SCOPES} /> : <input type="hidden" name="scope" value="swimmer" />}
        <SelectField field={fields.days} label="It works for" options={DAY_OPTIONS} />
        <TextField field={fields.coachEmail} label="Coach’s e-mail address" type="email" autoComplete="off" optional hint="We e-mail the link to this address. Leave it empty to send the link yourself." />
        <PendingButton name="intent" value="share" when={{ fields: { intent: 'share' } }} pendingLabel="Creating...">
          Create link
        </PendingButton>
      </Form>
      {linksHref && (
        <Link to={linksHref} className="link mt-4 inline-flex min-h-11 items-center">
          See or revoke the links you have shared
        </Link>
      )}
    </section>
  )
}

/**
 * A link just made, shown this once: in a read-only field to select and copy by hand (all there is
 * without JavaScript), with a button that copies it, and a WhatsApp message that carries it.
 */
function NewLink({ created }: { created: NonNullable<NonNullable<ShareActionData>['created']> }) {
  const hydrated = useHydrated()
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null)
  const field = useRef<HTMLInputElement>(null)
  const copy = () => {
    navigator.clipboard.writeText(created.url).then(
      () => setCopied('yes'),
      () => {
        // No clipboard (a browser that refuses it): the link is selected for the person to copy.
        field.current?.select()
        setCopied('no')
      },
    )
  }
  return (
    <div className="mt-4 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-ink">
      <p role="status" className="font-semibold">
        {created.emailedTo ? `Link created and e-mailed to ${created.emailedTo}.` : 'Link created.'} It works until {created.expires}.
      </p>
      <label htmlFor="share-link-url" className="mt-2 block text-sm font-semibold">
        The link (copy it now: it is shown only once)
      </label>
      <input ref={field} id="share-link-url" readOnly value={created.url} onFocus={(event) => event.currentTarget.select()} className="input mt-1 font-mono text-sm" data-testid="share-url" />
      <div className="mt-3 flex flex-wrap items-center gap-3">
        {hydrated && (
          <button type="button" onClick={copy} className="btn-secondary min-h-11 px-4 py-2">
            Copy the link
          </button>
        )}
        <a href={created.whatsApp} target="_blank" rel="noopener" className="btn-secondary min-h-11 px-4 py-2">
          Send on WhatsApp<span className="sr-only"> (opens in a new tab)</span>
        </a>
        <p role="status" className="text-sm font-semibold">
          {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Could not copy: the link is selected, copy it from there' : ''}
        </p>
      </div>
    </div>
  )
}

export type ShareLinkItem = { id: number; scope: string; coachEmail: string | null; created: string; expires: string; lastOpened: string | null; state: 'active' | 'revoked' | 'expired' }

const STATE_TEXT = { active: 'Works', revoked: 'Revoked', expired: 'Expired' } as const

/** The account's links for a swimmer, each with a form to revoke it while it works. */
export function ShareLinksList({ links }: { links: ShareLinkItem[] }) {
  return (
    <section id={SHARED_LINKS_ANCHOR} aria-labelledby="share-links-heading" className="card p-5 shadow-sm sm:p-6">
      <h2 id="share-links-heading" className="text-xl font-bold text-brand-900">
        Links you have shared
      </h2>
      {links.length === 0 ? (
        <p className="mt-2 text-muted">None yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200" data-testid="share-links">
          {links.map((link) => (
            <li key={link.id} className="py-3">
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="font-semibold text-muted">Shows</dt>
                <dd className="text-ink">{link.scope}</dd>
                <dt className="font-semibold text-muted">Coach</dt>
                <dd className="[overflow-wrap:anywhere] text-ink">{link.coachEmail ?? 'Not e-mailed'}</dd>
                <dt className="font-semibold text-muted">Created</dt>
                <dd className="text-ink">{link.created}</dd>
                <dt className="font-semibold text-muted">Expires</dt>
                <dd className="text-ink">{link.expires}</dd>
                <dt className="font-semibold text-muted">Last opened</dt>
                <dd className="text-ink">{link.lastOpened ?? 'Never'}</dd>
                <dt className="font-semibold text-muted">State</dt>
                <dd className="font-semibold text-ink">{STATE_TEXT[link.state]}</dd>
              </dl>
              {link.state === 'active' && (
                <Form method="post" className="mt-2">
                  <HoneypotField />
                  <input type="hidden" name="linkId" value={link.id} />
                  <PendingButton name="intent" value="revoke" when={{ fields: { intent: 'revoke', linkId: String(link.id) } }} pendingLabel="Revoking..." className="btn-secondary min-h-11 px-4 py-2">
                    Revoke<span className="sr-only"> the link created {link.created}{link.coachEmail ? ` for ${link.coachEmail}` : ''}</span>
                  </PendingButton>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
