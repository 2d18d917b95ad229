import { Form, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/audit'
import { requireAdmin } from '~/web/auth.server'
import { refuseNul } from '~/web/nul.server'
import { formatLabDateTime } from '~/lib/lab-time'
import { auditEntityTypes, auditEntries } from '~/modules/audit/audit.server'
import { describeChanges } from '~/modules/audit/changes'
import { adminCustomerLink } from '~/lib/links'

export const meta: Route.MetaFunction = () => [{ title: 'Audit log | Admin' }, { name: 'robots', content: 'noindex' }]

const FiltersSchema = z.object({ type: z.string().max(60).optional().catch(undefined), before: z.coerce.number().int().positive().max(2 ** 31 - 1).optional().catch(undefined) })
const PAGE = 50

/** "catalogue_item" → "Catalogue item": entity types are written by every admin section. */
const typeLabel = (type: string) => {
  const words = type.replace(/[_-]+/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export async function loader({ request }: Route.LoaderArgs) {
  refuseNul(request)
  await requireAdmin(request)
  const { type, before } = FiltersSchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  // One more than a page tells whether there are older entries to page to.
  const [found, types] = await Promise.all([auditEntries({ entityType: type || undefined, beforeId: before, limit: PAGE + 1 }), auditEntityTypes()])
  const entries = found.slice(0, PAGE)
  const pageLink = (beforeId?: number) => `?${new URLSearchParams({ ...(type ? { type } : {}), ...(beforeId ? { before: String(beforeId) } : {}) })}`
  return {
    type: type ?? '',
    types: types.map((value) => ({ value, label: typeLabel(value) })),
    newer: before ? pageLink() : null,
    older: found.length > PAGE ? pageLink(entries.at(-1)!.id) : null,
    entries: entries.map((entry) => ({
      id: entry.id,
      at: formatLabDateTime(entry.createdAt),
      who: entry.actorEmail,
      action: entry.action,
      entity: `${typeLabel(entry.entityType)} ${entry.entityId}`,
      link: entry.entityType === 'customer' ? adminCustomerLink(entry.entityId) : null,
      summary: entry.summary,
      changes: describeChanges(entry.before, entry.after),
    })),
  }
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { type, types, entries, newer, older } = loaderData
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Audit log</h1>
      <p className="mt-3 text-muted">Every change staff make, newest first, {PAGE} to a page.</p>
      <Form method="get" className="card mt-6 flex flex-wrap items-end gap-3 p-4">
        <div className="min-w-0 flex-1 basis-56">
          <label htmlFor="type" className="text-sm font-semibold text-ink">
            What changed
          </label>
          <select id="type" name="type" defaultValue={type} className="input mt-1">
            <option value="">Everything</option>
            {types.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn-primary">
          Show
        </button>
      </Form>

      <p className="mt-6 text-sm text-muted" role="status">
        {entries.length === 0 ? 'No changes recorded.' : `${entries.length} ${entries.length === 1 ? 'change' : 'changes'}${newer ? ', older ones' : ''}`}
      </p>
      <ol className="mt-3 space-y-3">
        {entries.map((entry) => (
          <li key={entry.id} className="card p-4 text-sm" data-testid="audit-entry">
            <p className="font-semibold text-ink">{entry.summary}</p>
            <p className="mt-1 text-muted">
              {entry.at} · {entry.who} ·{' '}
              {entry.link ? (
                <Link to={entry.link} className="text-brand-700 underline underline-offset-2">
                  {entry.entity}
                </Link>
              ) : (
                entry.entity
              )}{' '}
              · <code>{entry.action}</code>
            </p>
            {entry.changes.length > 0 && (
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                {entry.changes.map((change) => (
                  <div key={change.field} className="contents">
                    <dt className="text-muted">{change.field}</dt>
                    <dd className="[overflow-wrap:anywhere] text-ink">
                      {change.before} <span aria-hidden="true">→</span>
                      <span className="sr-only">changed to</span> {change.after}
                    </dd>
                  </div>
                ))}
              </dl>
            )}
          </li>
        ))}
      </ol>
      {(newer || older) && (
        <nav aria-label="Pages of the audit log" className="mt-6 flex flex-wrap gap-4">
          {newer && (
            <Link to={newer} className="btn-secondary">
              Newest changes
            </Link>
          )}
          {older && (
            <Link to={older} className="btn-secondary">
              Older changes
            </Link>
          )}
        </nav>
      )}
    </section>
  )
}
