import type { Route } from './+types/mail'
import { config } from '~/config.server'
import { requireAdmin } from '~/lib/auth.server'
import { formatLabDateTime } from '~/lib/lab-time'
import { listRecentEmails } from '~/modules/mail/outbox.server'

export const meta: Route.MetaFunction = () => [{ title: 'Mailbox | Admin' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const emails = await listRecentEmails(50)
  const local = !config().SMTP_URL
  return {
    transport: local ? 'local' : 'smtp',
    // Messages carry sign-in codes and password-reset links: once they really go to people's
    // inboxes, staff see who was written to and whether it arrived, not what was written.
    emails: emails.map((email) => ({ ...email, text: local ? email.text : null, createdAt: formatLabDateTime(email.createdAt), sentAt: email.sentAt ? formatLabDateTime(email.sentAt) : null })),
  }
}

const STATUS_STYLES: Record<string, string> = {
  sent: 'bg-emerald-100 text-emerald-900',
  queued: 'bg-slate-100 text-slate-800',
  retrying: 'bg-amber-100 text-amber-900',
  failed: 'bg-red-100 text-red-900',
}

export default function AdminMail({ loaderData }: Route.ComponentProps) {
  const { emails, transport } = loaderData
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Mailbox</h1>
      <p className="mt-3 text-muted">
        {transport === 'local'
          ? 'No SMTP_URL is configured, so e-mails are kept here (the local mailbox) instead of being sent.'
          : 'E-mails are sent through SMTP_URL; this is the outbox with each message’s delivery status (their content, which may hold sign-in codes, stays private).'}{' '}
        The 50 most recent, newest first.
      </p>
      {emails.length === 0 ? (
        <p className="mt-8 text-lg">No e-mails yet.</p>
      ) : (
        <ol className="mt-8 space-y-4">
          {emails.map((email) => (
            <li key={email.id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="mail">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="text-base font-bold text-ink">{email.subject}</h2>
                <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLES[email.status] ?? ''}`}>{email.status}</span>
              </div>
              <p className="mt-1 text-sm text-muted">
                To <span className="[overflow-wrap:anywhere] text-ink" data-testid="mail-to">{email.to}</span> · {email.createdAt}
                {email.attempts > 1 && ` · ${email.attempts} attempts`}
              </p>
              {email.lastError && <p className="mt-1 text-sm text-red-800">Last error: {email.lastError}</p>}
              {email.text !== null && (
                <details className="mt-3">
                  <summary className="cursor-pointer text-sm font-semibold text-brand-700">Show message</summary>
                  <pre className="mt-2 overflow-x-auto rounded-lg bg-slate-50 p-3 text-sm whitespace-pre-wrap text-ink [overflow-wrap:anywhere]" data-testid="mail-text">
                    {email.text}
                  </pre>
                </details>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
