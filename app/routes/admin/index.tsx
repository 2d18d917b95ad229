import { getFormProps, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link } from 'react-router'
import type { Route } from './+types/index'
import { BarChart } from '~/components/bar-chart'
import { FormAlert, PendingButton, TextField, useValidatedForm } from '~/components/form-fields'
import { requireAdmin } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { formIntent } from '~/web/intent'
import { rowId } from '~/lib/row-id'
import { redirectWithToast } from '~/web/toast.server'
import { formatRupees, formatWholeRupees } from '~/lib/money'
import { formatLabDate, formatLabDateTime, formatLabTime, formatLongDate, formatShortDayMonth, formatShortWeekdayDayMonth, formatTimeRange } from '~/lib/lab-time'
import { refusalOf } from '~/web/refusals.server'
import { overview } from '~/modules/overview/overview.server'
import { settleFailedRefund } from '~/modules/payments/refunds.server'
import { REFUND_NOT_WAITING, SettleRefundSchema } from '~/modules/payments/staff-schemas'
import { analysesDue } from '~/modules/analyses/publishing.server'
import { launchGaps } from '~/modules/site/launch-gaps'
import { settingsForStaff } from '~/modules/site/staff.server'
import { confirmConsent, WEAK_CONSENT_REASONS } from '~/modules/swimmers/consent.server'
import { swimmerAndBooker } from '~/modules/booking/texts'
import { adminAnalysisLink, adminBookingLink, adminCustomerLink } from '~/lib/links'

export const meta: Route.MetaFunction = () => [{ title: 'Overview | Admin' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const [data, due, settings] = await Promise.all([overview(), analysesDue(), settingsForStaff()])
  return {
    launchGaps: launchGaps(settings),
    today: formatLongDate(data.today),
    todaysSessions: data.todaysSessions.map((session) => ({
      reference: session.reference,
      time: formatTimeRange(session.start, session.end),
      who: swimmerAndBooker(session),
      what: session.dayCount > 1 ? `${session.productName}, day ${session.dayNumber} of ${session.dayCount}` : session.productName,
    })),
    week: data.week.map((day) => ({ label: formatShortWeekdayDayMonth(day.date), value: day.sessions, display: String(day.sessions) })),
    weekTotal: data.week.reduce((sum, day) => sum + day.sessions, 0),
    revenueByWeek: data.revenueByWeek.map((week) => ({ label: `Week of ${formatShortDayMonth(week.monday)}`, value: week.paise, display: formatWholeRupees(week.paise) })),
    revenueByProduct: data.revenueByProduct.map((row) => ({ label: row.product, value: row.paise, display: formatWholeRupees(row.paise) })),
    pending: data.payments.pending.map((payment) => ({ orderId: payment.orderId, reference: payment.bookingReference ?? payment.registrationReference, amount: formatRupees(payment.amountPaise), since: formatLabDateTime(payment.createdAt) })),
    refundsFailed: data.payments.refundsFailed.map((refund) => ({ refundId: refund.refundId, reference: refund.bookingReference ?? refund.registrationReference, customerName: refund.customerName, amount: formatRupees(refund.amountPaise), at: formatLabDateTime(refund.updatedAt) })),
    failed: data.payments.failed.map((payment) => ({ orderId: payment.orderId, reference: payment.bookingReference ?? payment.registrationReference, amount: formatRupees(payment.amountPaise), since: formatLabDateTime(payment.createdAt), reason: payment.failureReason })),
    camps: data.camps,
    due: due.map((row) => ({ reference: row.reference, swimmerName: row.swimmerName, overdue: row.overdue, started: row.started, due: `${formatLabTime(row.dueAt)}, ${formatLabDate(row.dueAt)}` })),
    consentsToConfirm: data.consentsToConfirm.map((consent) => ({
      consentId: consent.consentId,
      swimmerName: consent.swimmerName,
      accountId: consent.accountId,
      accountEmail: consent.accountEmail,
      parent: `${consent.guardianName}, ${consent.guardianEmail}`,
      why: `The address ${WEAK_CONSENT_REASONS[consent.weakBecause!]}.`,
      givenAt: formatLabDateTime(consent.givenAt),
    })),
  }
}

type ActionResult = { refundId: string; result: SubmissionResult<string[]> }

/**
 * Marks a refund the gateway failed as repaid by staff (bank transfer, cash), which tells the
 * customer; or confirms a parent's consent staff have checked, which lets the swimmer be booked.
 */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const formData = await readForm(request)
  if (formIntent(formData, ['confirm-consent'])) {
    const consentId = rowId(String(formData.get('consentId') ?? ''))
    const confirmed = consentId !== null && (await confirmConsent({ consentId, actor: { id: admin.id, email: admin.email } }))
    return redirectWithToast(href('/admin'), confirmed ? { type: 'success', title: 'Consent confirmed', description: 'The swimmer can be booked now, and has been told.' } : { type: 'info', title: 'That consent is not waiting for a check' })
  }
  const submission = parseWithZod(formData, { schema: SettleRefundSchema })
  if (submission.status !== 'success') return data<ActionResult>({ refundId: String(formData.get('refundId') ?? ''), result: submission.reply() }, { status: 400 })
  const { refundId, how } = submission.value
  try {
    await settleFailedRefund({ refundId, how, actor: { id: admin.id, email: admin.email } })
  } catch (error) {
    return redirectWithToast(href('/admin'), { type: 'error', title: refusalOf(error).message })
  }
  return redirectWithToast(href('/admin'), { type: 'success', title: 'Refund marked as repaid', description: `${refundId}: the customer has been told.` })
}

export default function AdminOverview({ loaderData, actionData }: Route.ComponentProps) {
  const { today, launchGaps, todaysSessions, week, weekTotal, revenueByWeek, revenueByProduct, pending, failed, refundsFailed, camps, due, consentsToConfirm } = loaderData
  const overdue = due.filter((row) => row.overdue)
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Overview</h1>
      <p className="mt-1 text-muted">{today}</p>
      {actionData && !refundsFailed.some((refund) => refund.refundId === actionData.refundId) && (
        <div className="mt-4">
          <FormAlert id="settle-error" errors={[REFUND_NOT_WAITING]} />
        </div>
      )}

      {launchGaps.length > 0 && (
        <section aria-labelledby="launch-heading" className="mt-6 rounded-2xl border border-amber-300 bg-amber-50 p-4">
          <h2 id="launch-heading" className="font-bold text-ink">
            Before going live: {launchGaps.length} {launchGaps.length === 1 ? 'detail' : 'details'} still to supply
          </h2>
          <p className="mt-1 text-sm text-ink">
            Visitors see the contact and legal details as still to be supplied by the lab; the coach and the team members not named yet are left out of the banner and the about page. Each link
            opens the field that sets it.
          </p>
          <ul className="mt-2 grid gap-1 text-sm sm:grid-cols-2">
            {launchGaps.map((gap) => (
              <li key={gap.what}>
                <Link to={gap.href} className="font-semibold text-brand-800 underline underline-offset-2">
                  {gap.what}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}

      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <section aria-labelledby="today-heading" className="card p-4">
          <h2 id="today-heading" className="font-bold text-ink">
            Today's sessions ({todaysSessions.length})
          </h2>
          {todaysSessions.length === 0 ? (
            <p className="mt-2 text-sm text-muted">No sessions today.</p>
          ) : (
            <ul className="mt-2 space-y-1 text-sm">
              {todaysSessions.map((session) => (
                <li key={`${session.reference}-${session.time}`}>
                  <span className="font-semibold text-ink">{session.time}</span>{' '}
                  <Link to={adminBookingLink(session.reference)} className="text-brand-700 underline underline-offset-2">
                    {session.who}
                  </Link>{' '}
                  <span className="text-muted">({session.what})</span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <BarChart title={`This week's sessions (${weekTotal})`} bars={week} />
        <BarChart title="Revenue by week (net of refunds)" bars={revenueByWeek} />
        {revenueByProduct.length > 0 ? (
          <BarChart title="Revenue by product, this financial year" bars={revenueByProduct} />
        ) : (
          <section className="card p-4">
            <h2 className="font-bold text-ink">Revenue by product, this financial year</h2>
            <p className="mt-2 text-sm text-muted">No payments yet this financial year.</p>
          </section>
        )}

        <section aria-labelledby="camps-heading" className="card p-4">
          <h2 id="camps-heading" className="font-bold text-ink">
            Camp seats left
          </h2>
          {camps.length === 0 && <p className="mt-2 text-sm text-muted">No camps coming up.</p>}
          {camps.map((camp) => (
            <div key={camp.name} className="mt-2">
              <p className="text-sm font-semibold text-ink">
                {camp.name} ({formatShortDayMonth(camp.startsOn)} to {formatShortDayMonth(camp.endsOn)})
              </p>
              <ul className="text-sm text-muted">
                {camp.batches.map((batch) => (
                  <li key={batch.name}>
                    {batch.name}: {batch.seatsLeft} of {batch.capacity} left
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </section>

        <section aria-labelledby="payments-heading" className="card p-4">
          <h2 id="payments-heading" className="font-bold text-ink">
            Payments: {pending.length} pending, {failed.length} failed (last 7 days)
          </h2>
          {[...pending.map((payment) => ({ ...payment, state: 'Pending', reason: null })), ...failed.map((payment) => ({ ...payment, state: 'Failed' }))].slice(0, 12).map((payment) => (
            <p key={payment.orderId} className="mt-1 text-sm">
              <span className={payment.state === 'Failed' ? 'font-semibold text-red-800' : 'font-semibold text-amber-900'}>{payment.state}</span>{' '}
              {payment.reference && payment.reference.startsWith('SWP-') ? (
                <Link to={adminBookingLink(payment.reference)} className="text-brand-700 underline underline-offset-2">
                  {payment.reference}
                </Link>
              ) : (
                payment.reference
              )}{' '}
              <span className="text-muted">
                {payment.amount}, {payment.since}
                {payment.reason ? `: ${payment.reason}` : ''}
              </span>
            </p>
          ))}
        </section>

        {refundsFailed.length > 0 && (
          <section aria-labelledby="refunds-failed-heading" className="rounded-2xl border border-red-300 bg-red-50 p-4 xl:col-span-2">
            <h2 id="refunds-failed-heading" className="font-bold text-red-900">
              Refunds that failed: repay these customers by hand, then mark each as repaid
            </h2>
            <ul className="mt-2 space-y-4 text-sm text-red-900">
              {refundsFailed.map((refund) => (
                <li key={refund.refundId}>
                  {refund.reference?.startsWith('SWP-') ? (
                    <Link to={adminBookingLink(refund.reference)} className="font-semibold underline underline-offset-2">
                      {refund.reference}
                    </Link>
                  ) : (
                    <span className="font-semibold">{refund.reference}</span>
                  )}{' '}
                  {refund.customerName}, {refund.amount}, failed {refund.at} ({refund.refundId})
                  <SettleRefundForm refundId={refund.refundId} reference={refund.reference} lastResult={actionData?.refundId === refund.refundId ? actionData.result : undefined} />
                </li>
              ))}
            </ul>
          </section>
        )}

        {consentsToConfirm.length > 0 && (
          <section aria-labelledby="consents-heading" className="rounded-2xl border border-amber-300 bg-amber-50 p-4 xl:col-span-2">
            <h2 id="consents-heading" className="font-bold text-ink">
              Parents' consents to check ({consentsToConfirm.length})
            </h2>
            <p className="mt-1 text-sm text-ink">
              The address that agreed may be the swimmer's own, so nothing can be booked for them until you confirm. Check with the parent (a call to the family, say) first.
            </p>
            <ul className="mt-2 space-y-3 text-sm text-ink">
              {consentsToConfirm.map((consent) => (
                <li key={consent.consentId}>
                  <Link to={adminCustomerLink(consent.accountId)} className="font-semibold underline underline-offset-2">
                    {consent.swimmerName}
                  </Link>{' '}
                  ({consent.accountEmail}): agreed by {consent.parent} on {consent.givenAt}. {consent.why}
                  <Form method="post" className="mt-1">
                    <input type="hidden" name="consentId" value={consent.consentId} />
                    <PendingButton name="intent" value="confirm-consent" when={{ fields: { intent: 'confirm-consent', consentId: String(consent.consentId) } }} pendingLabel="Confirming..." className="btn-secondary">
                      Confirm this consent
                    </PendingButton>
                  </Form>
                </li>
              ))}
            </ul>
          </section>
        )}

        <section aria-labelledby="analyses-due" className="card p-4 xl:col-span-2">
          <h2 id="analyses-due" className="font-bold text-ink">
            Analyses due <span className="rounded-full bg-brand-700 px-2.5 py-0.5 text-sm text-white">{due.length}</span>{' '}
            {overdue.length > 0 && <span className="rounded-full bg-red-700 px-2.5 py-0.5 text-sm text-white">{overdue.length} overdue</span>}
          </h2>
          <p className="mt-1 text-sm text-muted">Sessions that have ended, until their analysis is published or a report delivered.</p>
          {due.length === 0 ? (
            <p className="mt-2 text-sm text-muted">Every analysis promised so far has been delivered.</p>
          ) : (
            <ul className="mt-3 space-y-2">
              {due.map((row) => (
                <li key={row.reference} className={`rounded-lg border p-3 ${row.overdue ? 'border-red-300 bg-red-50' : 'border-slate-200 bg-slate-50'}`}>
                  <Link to={adminAnalysisLink(row.reference)} className={`font-semibold underline underline-offset-2 ${row.overdue ? 'text-red-900' : 'text-brand-700'}`}>
                    {row.reference}, {row.swimmerName}
                  </Link>
                  <span className={`block text-sm ${row.overdue ? 'font-semibold text-red-900' : 'text-ink'}`}>
                    {row.overdue ? `Overdue: was due by ${row.due}` : `Due by ${row.due}`} ({row.started ? 'draft started' : 'not started'})
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </section>
  )
}

function SettleRefundForm({ refundId, reference, lastResult }: { refundId: string; reference: string | null; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useValidatedForm(SettleRefundSchema, { id: `settle-${refundId}`, lastResult })
  return (
    <Form method="post" {...getFormProps(form)} className="mt-2 max-w-xl space-y-3 rounded-xl bg-white p-3 text-ink">
      <input type="hidden" name="refundId" value={refundId} />
      <TextField field={fields.how} label={`How was the customer for ${reference ?? refundId} repaid?`} placeholder="Bank transfer, UTR 1234567890" />
      <PendingButton when={{ fields: { refundId } }} pendingLabel="Saving...">
        Mark as repaid
      </PendingButton>
    </Form>
  )
}
