import { Form } from 'react-router'
import { FormAlert, HoneypotField, PendingButton } from './form-controls'

/** The button of a waitlist's e-mailed link that keeps the place (opening the link keeps nothing), with what it does and why it could not. */
export function KeepWaitlistPlace({ explanation, error }: { explanation: string; error: string | undefined }) {
  return (
    <Form method="post" className="mt-6 space-y-4">
      <HoneypotField />
      <p className="text-ink">{explanation}</p>
      <FormAlert id="waitlist-error" errors={error ? [error] : undefined} />
      <PendingButton when={{ untilLoaded: true }} pendingLabel="Confirming..." className="btn-primary w-full">
        Keep my place
      </PendingButton>
    </Form>
  )
}
