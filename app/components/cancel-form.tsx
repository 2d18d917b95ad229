import type { ReactNode } from 'react'
import { Form, Link } from 'react-router'
import { FormAlert, HoneypotField, PendingButton } from './form-controls'

/** The confirmation of a cancellation (a session or a camp place): what it means, the button that does it, and the way back. */
export function CancelForm({ action, terms, error, confirmLabel, keepLabel, backTo }: { action?: string; terms: ReactNode; error: string | null | undefined; confirmLabel: string; keepLabel: string; backTo: string }) {
  return (
    <Form method="post" action={action} className="card mt-6 space-y-4 p-6 shadow-sm">
      <HoneypotField />
      <p className="text-ink">{terms}</p>
      <FormAlert id="cancel-error" errors={error ? [error] : undefined} />
      <PendingButton pendingLabel="Cancelling..." className="btn-primary w-full bg-red-700 hover:bg-red-800">
        {confirmLabel}
      </PendingButton>
      <Link to={backTo} className="btn-secondary w-full">
        {keepLabel}
      </Link>
    </Form>
  )
}
