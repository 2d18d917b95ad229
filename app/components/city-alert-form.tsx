import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react'
import { Form, href } from 'react-router'
import { FieldError, FormAlert, HoneypotField, PendingButton, TextField, useLazyValidatedForm, type FieldConstraints } from './form-controls'

/** The form's id, and its answer's anchor: the page opens at the form after sending it without JavaScript. */
export const CITY_ALERT_FORM_ID = 'city-alert'

export type CityAlertAnswer = { asked: { city: string } } | { result: SubmissionResult<string[]> }

/**
 * "Tell me when the lab comes to my city": an address and a city (the lab's venues' cities
 * suggested), and for a signed-in customer whose WhatsApp number is proven and opted in, a box to be
 * told there too. Once sent it says the same whatever the address has asked before.
 */
export function CityAlertForm({ cities, whatsapp, constraint, answer, days }: { cities: string[]; whatsapp: { phone: string } | null; constraint: FieldConstraints; answer: CityAlertAnswer | undefined; days: number }) {
  const lastResult = answer && 'result' in answer ? answer.result : undefined
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/booking/city-alert-schemas').then((schemas) => schemas.CityAlertSchema), { id: CITY_ALERT_FORM_ID, constraint, lastResult })
  const { key: whatsappKey, ...whatsappProps } = getInputProps(fields.whatsapp, { type: 'checkbox', value: 'on' })
  return (
    <section aria-labelledby="city-alert-title" className="card mt-12 max-w-3xl scroll-mt-24 p-6 shadow-sm" id={`${CITY_ALERT_FORM_ID}-section`}>
      <h2 id="city-alert-title" className="text-xl font-bold text-brand-900">
        Tell me when the lab comes to my city
      </h2>
      <p className="mt-2 text-muted">We send one e-mail for each analysis day we plan in your city, and nothing else. Every e-mail has a link to stop them.</p>
      {answer && 'asked' in answer ? (
        <p role="status" className="mt-4 rounded-lg bg-brand-50 p-4 font-semibold text-ink">
          {`Check your inbox to confirm. Unless this address already gets alerts for ${answer.asked.city}, we have e-mailed it a link to confirm them, valid for ${days} days.`}
        </p>
      ) : null}
      <Form method="post" action={`${href('/analysis-days')}#${CITY_ALERT_FORM_ID}-section`} {...getFormProps(form)} className="mt-4 space-y-4">
        <HoneypotField />
        <FormAlert id={form.errorId} errors={form.errors} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.email} label="Your e-mail address" type="email" autoComplete="email" />
          <TextField field={fields.city} label="City" autoComplete="address-level2" list="city-alert-cities" />
        </div>
        <datalist id="city-alert-cities">
          {cities.map((city) => (
            <option key={city} value={city} />
          ))}
        </datalist>
        {whatsapp && (
          <div>
            <div className="flex items-start gap-3">
              <input key={whatsappKey} {...whatsappProps} required={false} className="mt-0.5 h-6 w-6 shrink-0 accent-brand-700" />
              <label htmlFor={fields.whatsapp.id} className="text-ink">
                {`Also tell me on WhatsApp (${whatsapp.phone})`}
              </label>
            </div>
            <FieldError field={fields.whatsapp as never} />
          </div>
        )}
        <PendingButton when={{ action: href('/analysis-days'), untilLoaded: true }} pendingLabel="Sending..." className="btn-primary w-full sm:w-auto">
          Tell me
        </PendingButton>
      </Form>
    </section>
  )
}
