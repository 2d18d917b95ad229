import { EmailValue } from './contact-value'

export type StatusCard = { tone: 'success' | 'error' | 'pending'; title: string; message: string; detail?: string; elapsed?: number }

const TONES = {
  success: { ring: 'border-emerald-300 bg-emerald-50', icon: 'bg-emerald-600', path: 'M5 12.5l4.5 4.5L19 7.5' },
  error: { ring: 'border-red-300 bg-red-50', icon: 'bg-red-700', path: 'M12 7v6m0 4h.01' },
  pending: { ring: 'border-brand-100 bg-brand-50', icon: 'bg-brand-700', path: 'M12 7v5l3 2' },
}

/**
 * The status card of a payment result page: icon, title, message and, while pending, the seconds
 * waited so far. It is a live region, so a change of state is announced.
 */
export function StatusCardView({ card, autoRefreshing, pollSeconds }: { card: StatusCard; autoRefreshing: boolean; pollSeconds: number }) {
  const tone = TONES[card.tone]
  return (
    <div role="status" className={`rounded-2xl border p-6 text-center sm:p-8 ${tone.ring}`}>
      <span aria-hidden="true" className={`mx-auto flex h-14 w-14 items-center justify-center rounded-full text-white ${tone.icon}`}>
        <svg viewBox="0 0 24 24" className={`h-8 w-8 ${card.tone === 'pending' ? 'motion-safe:animate-spin [animation-duration:3s]' : ''}`} fill="none" stroke="currentColor" strokeWidth="2.5">
          {card.tone === 'pending' && <circle cx="12" cy="12" r="8" />}
          <path d={tone.path} strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </span>
      <h2 className="mt-4 text-2xl font-extrabold text-ink">{card.title}</h2>
      <p className="mt-2 text-lg text-ink">{card.message}</p>
      {card.detail && <p className="mt-2 text-muted">{card.detail}</p>}
      {card.tone === 'pending' && (
        <p className="mt-4 text-sm text-muted">
          {card.elapsed !== undefined && <span className="block">Elapsed: {card.elapsed} seconds</span>}
          {autoRefreshing && <span className="block">Auto-refreshing every {pollSeconds} seconds...</span>}
        </p>
      )}
    </div>
  )
}

/** Refresh Status: a link that re-checks once without JavaScript, and in place with it. */
export function RefreshStatus({ href, onRefresh, busy }: { href: string; onRefresh: () => void; busy: boolean }) {
  return (
    <a
      href={href}
      onClick={(event) => {
        event.preventDefault()
        onRefresh()
      }}
      aria-disabled={busy || undefined}
      className="btn-primary"
    >
      {busy ? 'Checking...' : 'Refresh Status'}
    </a>
  )
}

/** One row of a payment's or booking's details (a <dl> with two columns). */
export function DetailRow({ term, value, href }: { term: string; value: string; href?: string | null }) {
  return (
    <>
      <dt className="text-muted">{term}</dt>
      <dd className="[overflow-wrap:anywhere] font-medium text-ink">
        <DetailValue value={value} href={href} />
      </dd>
    </>
  )
}

/** A detail's value; one with a web address (http or https) is a link to it, such as a venue's map. */
export function DetailValue({ value, href }: { value: string; href?: string | null }) {
  if (!href || !/^https?:\/\//i.test(href)) return value
  return (
    <a href={href} className="link" rel="noopener noreferrer" target="_blank">
      {value}
    </a>
  )
}

/** Where "Contact Support" leads: the lab's support e-mail and phone, on the page itself. */
export function SupportDetails({ support }: { support: { email: string; phone: string; hours: string } }) {
  return (
    <section id="support" aria-labelledby="support-heading" className="mt-8 rounded-2xl border border-slate-200 bg-slate-50 p-6">
      <h2 id="support-heading" className="text-lg font-bold text-ink">
        Contact support
      </h2>
      <p className="mt-2 text-muted">Quote your order ID and we will sort it out.</p>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted">E-mail</dt>
        <dd className="font-medium text-ink">
          <EmailValue email={support.email} />
        </dd>
        <DetailRow term="Phone" value={`${support.phone} (${support.hours})`} />
      </dl>
    </section>
  )
}

/** Said before payment when the session is too close to be cancelled or moved afterwards. */
export function TooLateToChange({ notice }: { notice: string }) {
  return <p className="mt-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-950">{notice}</p>
}
