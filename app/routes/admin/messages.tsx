import { Form, href, Link } from 'react-router'
import { z } from 'zod'
import type { Route } from './+types/messages'
import { MessageList } from '~/components/message-list'
import { config } from '~/config.server'
import { listMessages, messageView } from '~/modules/mail/staff-messages.server'
import { whatsappEnabled } from '~/modules/whatsapp/config.server'
import { requireAdmin } from '~/web/auth.server'
import { refuseNul } from '~/web/nul.server'

export const meta: Route.MetaFunction = () => [{ title: 'Messages | Admin' }, { name: 'robots', content: 'noindex' }]

const FilterSchema = z.object({
  channel: z.enum(['email', 'whatsapp']).optional().catch(undefined),
  to: z.string().trim().max(254).optional().catch(undefined),
  before: z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined),
})

export async function loader({ request }: Route.LoaderArgs) {
  refuseNul(request)
  await requireAdmin(request)
  const filter = FilterSchema.parse(Object.fromEntries(new URL(request.url).searchParams))
  const { messages, olderFrom } = await listMessages(filter)
  const localMailbox = !config().SMTP_URL
  const query = new URLSearchParams({ ...(filter.channel ? { channel: filter.channel } : {}), ...(filter.to ? { to: filter.to } : {}) })
  return {
    localMailbox,
    whatsapp: whatsappEnabled(),
    channel: filter.channel ?? '',
    to: filter.to ?? '',
    paged: Boolean(filter.before),
    firstPage: `?${query}`,
    olderPage: olderFrom ? `?${new URLSearchParams([...query, ['before', String(olderFrom)]])}` : null,
    messages: messages.map((message) => messageView(message, { localMailbox })),
  }
}

export default function AdminMessages({ loaderData }: Route.ComponentProps) {
  const { messages, localMailbox, whatsapp, channel, to, paged, firstPage, olderPage } = loaderData
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Messages</h1>
      <p className="mt-3 text-muted">
        {localMailbox
          ? 'No SMTP_URL is configured, so e-mails are kept here (the local mailbox) instead of being sent.'
          : 'E-mails are sent through SMTP_URL; this is the outbox with each message’s delivery status (their content, which may hold sign-in codes, stays private).'}{' '}
        {whatsapp
          ? 'WhatsApp messages go to the numbers that opted in, with what WhatsApp reported of each (sent to the phone, delivered, read, or not delivered and why).'
          : 'WhatsApp is off (no WhatsApp settings): only e-mails are sent.'}{' '}
        Newest first.
      </p>
      <Form method="get" role="search" className="card mt-6 flex flex-wrap items-end gap-3 p-4">
        <div>
          <label htmlFor="channel" className="text-sm font-semibold text-ink">
            Channel
          </label>
          <select id="channel" name="channel" defaultValue={channel} className="input mt-1">
            <option value="">All</option>
            <option value="email">E-mail</option>
            <option value="whatsapp">WhatsApp</option>
          </select>
        </div>
        <div className="min-w-0 flex-1 basis-64">
          <label htmlFor="to" className="text-sm font-semibold text-ink">
            To (e-mail address or WhatsApp number)
          </label>
          <input id="to" name="to" type="search" defaultValue={to} className="input mt-1" />
        </div>
        <button type="submit" className="btn-primary">
          Show
        </button>
        {(channel || to) && (
          <Link to={href('/admin/messages')} className="btn-secondary">
            Clear
          </Link>
        )}
      </Form>
      {messages.length === 0 ? (
        <p className="mt-8 text-lg">{channel || to || paged ? 'No messages match.' : 'No messages yet.'}</p>
      ) : (
        <div className="mt-8">
          <MessageList messages={messages} />
        </div>
      )}
      {(paged || olderPage) && (
        <nav aria-label="More messages" className="mt-6 flex flex-wrap gap-3">
          {paged && (
            <Link to={firstPage} className="btn-secondary">
              Newest messages
            </Link>
          )}
          {olderPage && (
            <Link to={olderPage} className="btn-secondary">
              Older messages
            </Link>
          )}
        </nav>
      )}
    </section>
  )
}
