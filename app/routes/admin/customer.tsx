import { data, Form, href, Link } from 'react-router'
import type { Route } from './+types/customer'
import { ConfirmDialog } from '~/components/confirm-dialog'
import { FormAlert, PendingButton } from '~/components/form-fields'
import { DetailRow } from '~/components/payment-status-card'
import { callerOf, requireAdmin } from '~/web/auth.server'
import { formatRupees } from '~/lib/money'
import { formatDateRange, formatLabDate, formatLabDateTime, formatTimeRange, formatWeekdayDate, labToday } from '~/lib/lab-time'
import { redirectWithToast } from '~/web/toast.server'
import { swimmerProfileRows } from '~/modules/swimmers/texts'
import { reopenConsentAsking, WEAK_CONSENT_REASONS, type consentRecordsOf } from '~/modules/swimmers/consent.server'
import { isMinor } from '~/modules/swimmers/swimmers.server'
import { customerDetails, disableCustomer, enableCustomer, resendVerification } from '~/modules/accounts/staff.server'
import { BOOKING_STATUS_LABELS } from '~/modules/booking/texts'
import { readForm } from '~/web/form-data.server'
import { formIntent } from '~/web/intent'
import { rowId } from '~/lib/row-id'
import { notFoundUnless, refusalData } from '~/web/refusals.server'
import { MessageList } from '~/components/message-list'
import { config } from '~/config.server'
import { formatPhone } from '~/lib/phone'
import { messagesToCustomer, messageView } from '~/modules/mail/staff-messages.server'
import { whatsappConsentOf, type WhatsAppConsent } from '~/modules/whatsapp/consent.server'
import { adminBookingLink, adminCustomerLink, adminMessagesLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: `${loaderData?.customer.name ?? 'Customer'} | Admin` }, { name: 'robots', content: 'noindex' }]

function customerId(params: Route.LoaderArgs['params']) {
  const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : null
  notFoundUnless(id)
  return id
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request)
  const details = await customerDetails(customerId(params))
  notFoundUnless(details)
  const { customer, swimmers, bookings, registrations } = details
  const today = labToday()
  const [messages, whatsappConsent] = await Promise.all([messagesToCustomer(customer), whatsappConsentOf(customer.phone)])
  const localMailbox = !config().SMTP_URL
  const profile: Array<[term: string, value: string]> = [['Location', customer.currentLocation ?? '']]
  return {
    confirmingDisable: new URL(request.url).searchParams.get('confirm') === 'disable',
    customer: {
      id: customer.id,
      name: customer.name,
      email: customer.email,
      phone: customer.phone ? formatPhone(customer.phone) : '',
      whatsapp: customer.phone ? whatsappState(whatsappConsent) : null,
      verified: customer.isVerified,
      disabled: customer.disabledAt !== null,
      status: customer.disabledAt ? `Disabled since ${formatLabDateTime(customer.disabledAt)}` : customer.isVerified ? 'Active' : 'E-mail address not verified yet',
      registeredOn: formatLabDate(customer.createdAt),
      signedIn: `${customer.sessionCount} ${customer.sessionCount === 1 ? 'browser' : 'browsers'}`,
      profile: profile.filter(([, value]) => value),
    },
    swimmers: swimmers.map((swimmer) => ({
      id: swimmer.id,
      name: swimmer.isAccountHolder ? `${swimmer.name} (the account holder)` : swimmer.name,
      profile: swimmerProfileRows(swimmer, today),
      consent: isMinor(swimmer) ? consentRows(swimmer) : [],
      /** After a parent withdrew, only their address may be asked again, until staff re-open it. */
      reopensConsent: swimmer.isAccountHolder && swimmer.consent?.withdrawnAt != null && swimmer.consent.reopenedAt === null ? swimmer.consent.guardianEmail : null,
    })),
    bookings: bookings.map((booking) => ({
      reference: booking.reference,
      summary: `${booking.productName} for ${booking.swimmerName}, ${BOOKING_STATUS_LABELS[booking.status]}, ${formatRupees(booking.amountPaise)}`,
      when: `${booking.days.map((day) => formatWeekdayDate(day.date)).join(', ')}, ${formatTimeRange(booking.startTime, booking.endTime)}. Booked on ${formatLabDate(booking.createdAt)}.`,
    })),
    registrations: registrations.map((registration) => ({
      reference: registration.reference,
      summary: `${registration.swimmerName}: ${registration.campName}, ${formatDateRange(registration.startsOn, registration.endsOn)}, ${registration.batchName}, ${BOOKING_STATUS_LABELS[registration.status]}, ${formatRupees(registration.amountPaise)}`,
      when: `Registered on ${formatLabDate(registration.createdAt)}.`,
    })),
    messages: messages.map((message) => messageView(message, { localMailbox })),
  }
}

const CONSENT_SOURCES = { registration: 'the registration form', account: 'their account', camp: 'a camp form', booking: 'the booking form', reply: 'a reply to a message' } as const

/** Whether the customer's number gets WhatsApp messages, since when and how they said so. */
function whatsappState(consent: WhatsAppConsent | null) {
  if (consent?.optedIn && consent.optedInAt) return `On since ${formatLabDateTime(consent.optedInAt)}, through ${CONSENT_SOURCES[consent.optInSource ?? 'account']}`
  if (consent?.optedOutAt) return `Off since ${formatLabDateTime(consent.optedOutAt)}, through ${CONSENT_SOURCES[consent.optOutSource ?? 'account']}`
  return 'Off (never opted in)'
}

const METHODS = { registration_form: 'declaration in the registration form', consent_link: 'the e-mailed consent link', camp_form: 'declaration in the camp form', booking_form: 'declaration in the booking form' } as const
const VERIFIED_BY = { account_code: "the account's e-mailed code", consent_link: 'the consent link sent to it', unverified: 'not verified' } as const

/** What staff see of a swimmer under 18's consent: the record, or why there is none. */
function consentRows({ consent, request }: Awaited<ReturnType<typeof consentRecordsOf>> extends Map<number, infer Record> ? Record : never): Array<[term: string, value: string]> {
  if (consent && (consent.withdrawnAt === null || !request || request.status !== 'waiting')) {
    const rows: Array<[term: string, value: string]> = [
      ['Consent', consent.withdrawnAt ? `Withdrawn ${formatLabDateTime(consent.withdrawnAt)}` : 'Given'],
      ['Given by', `${consent.guardianName}, ${consent.guardianEmail} (verified by ${VERIFIED_BY[consent.emailVerifiedBy]})`],
      ['Given', `${formatLabDateTime(consent.givenAt)}, through ${METHODS[consent.method]}`],
      ['Privacy notice', consent.noticeVersion],
    ]
    if (consent.weakBecause) {
      const checked = consent.staffConfirmedAt ? `confirmed by staff ${formatLabDateTime(consent.staffConfirmedAt)}` : 'not confirmed yet: the swimmer cannot be booked (see the overview)'
      rows.push(['Checked', `The address ${WEAK_CONSENT_REASONS[consent.weakBecause]}; ${checked}`])
    }
    return rows
  }
  if (request?.status === 'unsent') return [['Consent', `Not asked yet: ${request.parentEmail} is e-mailed once the swimmer's own address is verified`]]
  if (request?.status === 'waiting' && request.expiresAt > new Date()) return [['Consent', `Waiting for the parent since ${formatLabDateTime(request.createdAt)} (${request.parentEmail}, link valid until ${formatLabDateTime(request.expiresAt)})`]]
  if (request?.status === 'refused') return [['Consent', `Refused by the parent (${request.parentEmail})${request.answeredAt ? ` ${formatLabDateTime(request.answeredAt)}` : ''}`]]
  return [['Consent', 'No consent']]
}

const INTENTS = ['resend-verification', 'disable', 'enable', 'reopen-consent'] as const

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const actor = { id: admin.id, email: admin.email }
  const userId = customerId(params)
  const formData = await readForm(request)
  const intent = formIntent(formData, INTENTS)
  if (!intent) return data({ error: 'Choose what to do with this account.' }, { status: 400 })
  const here = adminCustomerLink(userId)
  try {
    switch (intent) {
      case 'resend-verification':
        await resendVerification({ actor, userId, ip: callerOf(request, context).ip })
        return redirectWithToast(here, { type: 'success', title: 'Verification code sent', description: 'The customer has been e-mailed a new code.' })
      case 'disable': {
        const changed = await disableCustomer({ actor, userId })
        return redirectWithToast(here, changed ? { type: 'success', title: 'Account disabled', description: 'They have been signed out everywhere.' } : { type: 'info', title: 'The account was already disabled' })
      }
      case 'enable': {
        const changed = await enableCustomer({ actor, userId })
        return redirectWithToast(here, changed ? { type: 'success', title: 'Account enabled', description: 'They can sign in again.' } : { type: 'info', title: 'The account was not disabled' })
      }
      case 'reopen-consent': {
        const swimmerId = rowId(String(formData.get('swimmerId') ?? ''))
        const changed = swimmerId !== null && (await reopenConsentAsking({ accountId: userId, swimmerId, actor }))
        return redirectWithToast(
          here,
          changed ? { type: 'success', title: 'Asking another address re-opened', description: "The swimmer can now send the consent link to another parent's address." } : { type: 'info', title: 'Nothing to re-open for this swimmer' },
        )
      }
    }
  } catch (error) {
    return refusalData(error)
  }
}

export default function AdminCustomer({ loaderData, actionData }: Route.ComponentProps) {
  const { customer, swimmers, bookings, registrations, messages, confirmingDisable } = loaderData
  const here = adminCustomerLink(customer.id)
  return (
    <section>
      <Link to={href('/admin/customers')} className="link text-sm">
        All customers
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold text-brand-900">{customer.name}</h1>
      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <section aria-labelledby="account-heading" className="card p-6">
          <h2 id="account-heading" className="text-lg font-bold text-ink">
            Account
          </h2>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <DetailRow term="Status" value={customer.status} />
            <DetailRow term="E-mail" value={customer.email} />
            {customer.phone && <DetailRow term="Phone" value={customer.phone} />}
            {customer.whatsapp && <DetailRow term="WhatsApp messages" value={customer.whatsapp} />}
            <DetailRow term="Registered on" value={customer.registeredOn} />
            <DetailRow term="Signed in on" value={customer.signedIn} />
            {customer.profile.map(([term, value]) => (
              <DetailRow key={term} term={term} value={value} />
            ))}
          </dl>
        </section>

        <section aria-labelledby="actions-heading" className="card p-6">
          <h2 id="actions-heading" className="text-lg font-bold text-ink">
            Actions
          </h2>
          <div className="mt-3 space-y-5">
            <FormAlert id="action-error" errors={actionData?.error ? [actionData.error] : undefined} />
            {!customer.verified && !customer.disabled && (
              <Form method="post">
                <p className="text-sm text-muted">They have not entered the code from their e-mail yet, so they cannot sign in. A new code replaces the old one.</p>
                <PendingButton name="intent" value="resend-verification" className="btn-secondary mt-2">
                  Resend the verification code
                </PendingButton>
              </Form>
            )}
            {customer.disabled ? (
              <Form method="post">
                <p className="text-sm text-muted">They cannot sign in while the account is disabled.</p>
                <PendingButton name="intent" value="enable" className="btn-primary mt-2">
                  Enable the account
                </PendingButton>
              </Form>
            ) : (
              <div>
                <p className="text-sm text-muted">Disabling signs them out everywhere and stops them signing in. Their bookings stay as they are.</p>
                <Link to="?confirm=disable" preventScrollReset className="btn-secondary mt-2 border-red-700 text-red-800 hover:bg-red-50">
                  Disable the account…
                </Link>
              </div>
            )}
          </div>
        </section>

        <section aria-labelledby="swimmers-heading" className="card p-6 xl:col-span-2">
          <h2 id="swimmers-heading" className="text-lg font-bold text-ink">
            Swimmers
          </h2>
          {swimmers.length === 0 ? (
            <p className="mt-1 text-sm text-muted">No swimmer profiles.</p>
          ) : (
            <ul className="mt-3 grid gap-3 text-sm md:grid-cols-2">
              {swimmers.map((swimmer) => (
                <li key={swimmer.id} className="rounded-lg bg-slate-50 p-3">
                  <h3 className="font-semibold text-ink">{swimmer.name}</h3>
                  <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                    {[...swimmer.profile, ...swimmer.consent].map(([term, value]) => (
                      <DetailRow key={term} term={term} value={value} />
                    ))}
                  </dl>
                  {swimmer.reopensConsent && (
                    <Form method="post" className="mt-3">
                      <input type="hidden" name="swimmerId" value={swimmer.id} />
                      <p className="text-muted">{`A new consent link can go only to ${swimmer.reopensConsent}, who withdrew. Once you have checked with the family that another address is the parent's, let the swimmer ask it.`}</p>
                      <PendingButton name="intent" value="reopen-consent" when={{ fields: { intent: 'reopen-consent', swimmerId: String(swimmer.id) } }} className="btn-secondary mt-2">
                        Let the swimmer ask another address
                      </PendingButton>
                    </Form>
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="bookings-heading" className="card p-6 xl:col-span-2">
          <h2 id="bookings-heading" className="text-lg font-bold text-ink">
            Bookings
          </h2>
          {bookings.length === 0 ? (
            <p className="mt-1 text-sm text-muted">No bookings.</p>
          ) : (
            <ul className="mt-3 space-y-3 text-sm">
              {bookings.map((booking) => (
                <li key={booking.reference} className="rounded-lg bg-slate-50 p-3">
                  <Link to={adminBookingLink(booking.reference)} className="link">
                    {booking.reference}
                  </Link>{' '}
                  <span className="text-ink">{booking.summary}</span>
                  <span className="block text-muted">{booking.when}</span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="registrations-heading" className="card p-6 xl:col-span-2">
          <h2 id="registrations-heading" className="text-lg font-bold text-ink">
            Camp registrations
          </h2>
          <p className="mt-1 text-sm text-muted">Made under {customer.email}, with or without signing in.</p>
          {registrations.length === 0 ? (
            <p className="mt-1 text-sm text-muted">No camp registrations.</p>
          ) : (
            <ul className="mt-3 space-y-3 text-sm">
              {registrations.map((registration) => (
                <li key={registration.reference} className="rounded-lg bg-slate-50 p-3">
                  <span className="font-semibold text-ink">{registration.reference}</span>{' '}
                  <span className="text-ink">{registration.summary}</span>
                  <span className="block text-muted">{registration.when}</span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section aria-labelledby="messages-heading" className="card p-6 xl:col-span-2">
          <h2 id="messages-heading" className="text-lg font-bold text-ink">
            Messages
          </h2>
          <p className="mt-1 text-sm text-muted">
            E-mails to {customer.email}
            {customer.phone && ` and WhatsApp messages to ${customer.phone}`}, newest first.{' '}
            <Link to={adminMessagesLink(customer.email)} className="link">
              All their e-mails
            </Link>
          </p>
          {messages.length === 0 ? (
            <p className="mt-1 text-sm text-muted">No messages.</p>
          ) : (
            <div className="mt-3">
              <MessageList messages={messages} headingLevel="h3" />
            </div>
          )}
        </section>
      </div>

      {confirmingDisable && !customer.disabled && (
        <ConfirmDialog title={`Disable ${customer.name}'s account?`} closeHref={here}>
          <p className="text-muted">They will be signed out on every device and cannot sign in until you enable the account again.</p>
          <Form method="post" action={here} className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Link to={here} preventScrollReset className="btn-secondary">
              Cancel
            </Link>
            <PendingButton name="intent" value="disable" className="btn-primary bg-red-700 hover:bg-red-800">
              Disable the account
            </PendingButton>
          </Form>
        </ConfirmDialog>
      )}
    </section>
  )
}
