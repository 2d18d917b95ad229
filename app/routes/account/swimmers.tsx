import { href, Link } from 'react-router'
import type { Route } from './+types/swimmers'
import { ParentConsentNotice } from '~/components/parent-consent-notice'
import { requireUser } from '~/web/auth.server'
import { formatLabDateTime, labToday } from '~/lib/lab-time'
import { pageMeta } from '~/lib/seo'
import { swimmerProfileRows } from '~/modules/swimmers/texts'
import { consentStatusOf, type ConsentStatus } from '~/modules/swimmers/consent.server'
import { addSwimmerRefusal, holderConsentNotice, swimmersOf } from '~/modules/swimmers/swimmers.server'
import { swimmerConsentLink, swimmerEditLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'My Swimmers', description: 'The swimmers of your account: their profiles and their parents’ consent.', path: href('/swimmers') }),
  { name: 'robots', content: 'noindex' },
]

function consentText(status: ConsentStatus) {
  switch (status.state) {
    case 'not_needed':
      return 'Not needed (18 or over)'
    case 'given':
      return `Given by ${status.guardianName}`
    case 'checking':
      return `Given by ${status.guardianName}; the lab checks it before this swimmer can be booked`
    case 'not_asked':
      return `Not asked yet: send ${status.parentEmail} the link from the consent page`
    case 'waiting':
      return `Waiting for ${status.parentEmail} to agree (by ${formatLabDateTime(status.expiresAt)})`
    case 'refused':
      return 'Refused by the parent: this swimmer cannot be booked'
    case 'missing':
      return 'Not given: this swimmer cannot be booked yet'
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const now = new Date()
  const today = labToday(now)
  const list = await swimmersOf(user.id)
  const [statuses, notice, refusal] = await Promise.all([Promise.all(list.map((swimmer) => consentStatusOf(swimmer, now))), holderConsentNotice(user.id, now), addSwimmerRefusal(user.id, now)])
  return {
    /** For an account holder under 18 waiting for their parent: the same notice /book-slot shows. */
    consentNotice: notice,
    addRefusal: refusal,
    swimmers: list.map((swimmer, index) => ({
      id: swimmer.id,
      name: swimmer.name,
      isAccountHolder: swimmer.isAccountHolder,
      rows: swimmerProfileRows(swimmer, today),
      consent: { state: statuses[index]!.state, text: consentText(statuses[index]!) },
    })),
  }
}

const CONSENT_STYLE: Record<ConsentStatus['state'], string> = {
  not_needed: 'text-ink',
  given: 'text-emerald-800',
  checking: 'text-amber-900',
  refused: 'text-red-800',
  not_asked: 'text-amber-900',
  waiting: 'text-amber-900',
  missing: 'text-red-800',
}

export default function Swimmers({ loaderData }: Route.ComponentProps) {
  const { swimmers, consentNotice, addRefusal } = loaderData
  return (
    <section className="container-page py-10 sm:py-14">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-extrabold text-brand-900 sm:text-4xl">My Swimmers</h1>
        {!addRefusal && (
          <Link to={href('/swimmers/new')} className="btn-primary">
            Add a swimmer
          </Link>
        )}
      </div>
      <p className="mt-3 max-w-2xl text-muted">The swimmers you book sessions for. A swimmer under 18 is booked only with a parent's or guardian's consent.</p>
      {consentNotice && (
        <div className="mt-6 max-w-3xl">
          <ParentConsentNotice notice={consentNotice} />
        </div>
      )}
      {addRefusal && <p className="mt-6 max-w-3xl rounded-lg border border-slate-300 bg-slate-50 px-4 py-3 text-sm text-ink">{addRefusal}</p>}
      {swimmers.length === 0 ? (
        <div className="card mt-8 p-8 text-center shadow-sm">
          <h2 className="text-xl font-bold text-ink">No swimmers yet</h2>
          <p className="mt-2 text-muted">Add the swimmers you book for, yourself or your children.</p>
        </div>
      ) : (
        <ul className="mt-8 grid gap-6 lg:grid-cols-2">
          {swimmers.map((swimmer) => (
            <li key={swimmer.id} className="card p-6 shadow-sm" data-testid="swimmer">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <h2 className="text-xl font-bold text-ink">
                  {swimmer.name}
                  {swimmer.isAccountHolder && <span className="ml-2 text-base font-medium text-muted">(you)</span>}
                </h2>
                <Link to={swimmerEditLink(swimmer.id)} className="btn-secondary min-h-10 px-4 py-2">
                  Edit<span className="sr-only"> {swimmer.name}</span>
                </Link>
              </div>
              <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
                {swimmer.rows.map(([term, value]) => (
                  <div key={term} className="contents">
                    <dt className="font-semibold text-muted">{term}</dt>
                    <dd className="text-ink">{value}</dd>
                  </div>
                ))}
                <div className="contents">
                  <dt className="font-semibold text-muted">Parent's consent</dt>
                  <dd className={`font-medium ${CONSENT_STYLE[swimmer.consent.state]}`}>
                    {swimmer.consent.text}
                    {swimmer.consent.state !== 'not_needed' && (
                      <>
                        {' '}
                        <Link to={swimmerConsentLink(swimmer.id)} className="link">
                          {swimmer.isAccountHolder ? 'Where it stands' : 'Manage consent'}
                          <span className="sr-only"> for {swimmer.name}</span>
                        </Link>
                      </>
                    )}
                  </dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
