import { Form } from 'react-router'
import { FormAlert, HoneypotField, PendingButton } from '~/components/form-controls'

type FutureBooking = { key: string; title: string; reference: string; when: string; refund: string }

/**
 * Withdrawing a parent's consent, from the account or from the parent's e-mailed link: what it
 * cancels is listed before the person confirms.
 */
export function ConsentWithdrawalForm({ swimmer, afterwards, future, error }: { swimmer: string; afterwards: string; future: FutureBooking[]; error: string | undefined }) {
  return (
    <Form method="post" className="space-y-4 border-t border-slate-200 pt-6">
      <HoneypotField />
      <input type="hidden" name="intent" value="withdraw" />
      <h2 className="text-lg font-bold text-brand-900">Withdraw consent</h2>
      <p className="text-ink">{`If you withdraw your consent, ${afterwards}`}</p>
      {future.length === 0 ? (
        <p className="text-ink">{`${swimmer} has no sessions or camp places to come.`}</p>
      ) : (
        <div>
          <p className="text-ink">{`These sessions and camp places of ${swimmer} will be cancelled:`}</p>
          <ul className="mt-2 space-y-2">
            {future.map((booking) => (
              <li key={booking.key} className="rounded-lg bg-slate-50 p-3 text-sm text-ink">
                <span className="block font-semibold">{`${booking.title}, ${booking.when}`}</span>
                <span className="block">{`${booking.reference}: ${booking.refund}`}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <FormAlert id="withdraw-error" errors={error ? [error] : undefined} />
      <PendingButton when={{ fields: { intent: 'withdraw' }, untilLoaded: true }} pendingLabel="Withdrawing..." className="btn-primary w-full sm:w-auto">
        {future.length > 0 ? 'Withdraw consent and cancel these bookings' : 'Withdraw consent'}
      </PendingButton>
    </Form>
  )
}
