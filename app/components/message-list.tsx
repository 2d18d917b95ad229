import type { MessageView } from '~/modules/mail/staff-messages.server'

const STATUS_STYLES: Record<string, string> = {
  sent: 'bg-emerald-100 text-emerald-900',
  queued: 'bg-slate-100 text-slate-800',
  retrying: 'bg-amber-100 text-amber-900',
  failed: 'bg-red-100 text-red-900',
}

/** Messages as staff see them (the admin's messages and a customer's page): channel, recipient, status, delivery. */
export function MessageList({ messages, headingLevel = 'h2' }: { messages: MessageView[]; headingLevel?: 'h2' | 'h3' }) {
  const Heading = headingLevel
  return (
    <ol className="space-y-4">
      {messages.map((message) => (
        <li key={message.id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid={message.channel === 'WhatsApp' ? 'whatsapp-message' : 'mail'}>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <Heading className="text-base font-bold text-ink">
              <span className="mr-2 rounded bg-brand-50 px-1.5 py-0.5 text-xs font-semibold text-brand-900">{message.channel}</span>
              {message.title}
            </Heading>
            <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_STYLES[message.status] ?? ''}`}>{message.status}</span>
          </div>
          <p className="mt-1 text-sm text-muted">
            To <span className="[overflow-wrap:anywhere] text-ink" data-testid="mail-to">{message.to}</span> · {message.queuedAt}
            {message.attempts > 1 && ` · ${message.attempts} attempts`}
            {message.template && ` · template ${message.template}`}
          </p>
          {message.delivery && (
            <p className="mt-1 text-sm text-ink" data-testid="delivery">
              {message.delivery}
              {message.deliveryError && `: ${message.deliveryError}`}
            </p>
          )}
          {message.lastError && <p className="mt-1 text-sm text-red-800">Last error: {message.lastError}</p>}
          {message.text !== null && (
            <details className="mt-3">
              <summary className="cursor-pointer text-sm font-semibold text-brand-700">Show message</summary>
              <pre className="mt-2 overflow-x-auto rounded-lg bg-slate-50 p-3 text-sm whitespace-pre-wrap text-ink [overflow-wrap:anywhere]" data-testid="mail-text">
                {message.text}
              </pre>
            </details>
          )}
        </li>
      ))}
    </ol>
  )
}
