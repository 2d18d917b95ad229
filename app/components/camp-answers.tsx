import { Form, href } from 'react-router'
import type { CampApplicantFields } from '~/web/camps/after-the-camp-line.server'
import { AuthCard, FormAlert, HoneypotField } from './form-controls'

/**
 * The batch chosen is full: the parent's next step is its waitlist, sent with the details they
 * typed, or another batch. A page of its own, light to send when thousands are turned away at once.
 */
export function BatchFull({ message, applicant }: { message: string; applicant: CampApplicantFields }) {
  return <CampAnswer id="batch-full" message={message} applicant={applicant} offerWaitlist />
}

/** A registration the line refused (an unpaid hold elsewhere, already registered…): why, and the form again with what was typed. */
export function RegistrationRefused({ message, applicant }: { message: string; applicant: CampApplicantFields }) {
  return <CampAnswer id="registration-refused" message={message} applicant={applicant} />
}

/** Try Again after a payment that did not go through: the form once more, with what the parent had typed. */
export function TryAgainWith({ applicant }: { applicant: CampApplicantFields }) {
  return (
    <Form method="post" action={href('/onboarding')}>
      <HoneypotField />
      <ApplicantFields applicant={applicant} />
      <button type="submit" name="intent" value="edit" className="btn-primary">
        Try Again
      </button>
    </Form>
  )
}

function ApplicantFields({ applicant }: { applicant: CampApplicantFields }) {
  // The declaration was made in the form that led here; joining the waitlist keeps it.
  return [...Object.entries(applicant), ['guardianDeclaration', 'on']].map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)
}

function CampAnswer({ id, message, applicant, offerWaitlist = false }: { id: string; message: string; applicant: CampApplicantFields; offerWaitlist?: boolean }) {
  return (
    <AuthCard title="Camp Registration Form" wide>
      <Form method="post" action={href('/onboarding')} className="space-y-4">
        <FormAlert id={id} errors={[message]} />
        <HoneypotField />
        <ApplicantFields applicant={applicant} />
        <div className="flex flex-wrap gap-3">
          {offerWaitlist && (
            <button type="submit" name="intent" value="waitlist" className="btn-primary">
              Join the waitlist
            </button>
          )}
          <button type="submit" name="intent" value="edit" className="btn-secondary">
            Try Again
          </button>
        </div>
      </Form>
    </AuthCard>
  )
}
