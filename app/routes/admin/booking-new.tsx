import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link } from 'react-router'
import type { Route } from './+types/booking-new'
import { FormAlert, PendingButton, RadioGroupField, SelectField, TextField, useValidatedForm } from '~/components/form-fields'
import { requireAdmin } from '~/web/auth.server'
import { rupeesToPaise } from '~/lib/money'
import { redirectWithToast } from '~/web/toast.server'
import { createStaffBooking } from '~/modules/booking/staff.server'
import { PAYMENT_METHODS, STAFF_PRODUCTS, StaffBookingSchema } from '~/modules/booking/staff-schemas'
import { getCatalogue, requireItem } from '~/modules/site/site.server'
import { readForm } from '~/web/form-data.server'
import { formErrorsOf, refusalOf } from '~/web/refusals.server'
import { adminBookingLink } from '~/lib/links'

export const meta: Route.MetaFunction = () => [{ title: 'New booking | Admin' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const catalogue = await getCatalogue()
  return { products: STAFF_PRODUCTS.map((product) => ({ value: product.value, label: requireItem(catalogue, product.value).name })) }
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  const submission = parseWithZod(await readForm(request), { schema: StaffBookingSchema })
  if (submission.status !== 'success') return data(submission.reply(), { status: 400 })
  const form = submission.value
  const product = STAFF_PRODUCTS.find((candidate) => candidate.value === form.product)!
  try {
    const booking = await createStaffBooking(
      { id: admin.id, email: admin.email },
      {
        productCode: product.value,
        days: product.days,
        date: form.date,
        start: form.time,
        customer: { name: form.name, email: form.email, phone: form.phone || null },
        swimmerName: form.swimmerName ?? null,
        origin: form.origin,
        amountPaise: form.origin === 'offline' ? rupeesToPaise(form.amount ?? '')! : 0,
        paymentMethod: form.origin === 'offline' ? (form.paymentMethod ?? null) : null,
        notes: form.notes || null,
      },
    )
    return redirectWithToast(adminBookingLink(booking.reference), { type: 'success', title: 'Booking made', description: `${form.name} has been e-mailed the confirmation.` })
  } catch (error) {
    const refusal = refusalOf(error)
    return data(submission.reply(formErrorsOf(refusal)), { status: refusal.status })
  }
}

export default function NewBooking({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useValidatedForm(StaffBookingSchema, { lastResult: actionData, defaultValue: { product: 'biomechanical_package', origin: 'complimentary', time: '09:00' } })
  return (
    <section className="max-w-2xl">
      <Link to={href('/admin/bookings')} className="link text-sm">
        All bookings
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold text-brand-900">New booking</h1>
      <p className="mt-2 text-muted">For a session paid at the lab, or given free. Online bookings are made by customers themselves.</p>
      <Form method="post" {...getFormProps(form)} className="card mt-6 space-y-5 p-6">
        <FormAlert id={form.errorId} errors={form.errors} />
        <TextField field={fields.name} label="Customer's name" autoComplete="off" />
        <TextField field={fields.swimmerName} label="Swimmer's name" autoComplete="off" optional hint="When someone else swims, a child of the customer's, say. A swimmer of the customer's account with this name gets the booking." />
        <TextField field={fields.email} label="Customer's e-mail" type="email" autoComplete="off" hint="The confirmation goes here; an account with this address sees the booking." />
        <TextField field={fields.phone} label="Phone" type="tel" optional />
        <SelectField field={fields.product} label="Booking" options={loaderData.products} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.date} label="Date (Day 1)" type="date" />
          <TextField field={fields.time} label="Start time" type="time" />
        </div>
        <RadioGroupField
          field={fields.origin}
          legend="Payment"
          options={[
            { value: 'complimentary', label: 'Complimentary (free)' },
            { value: 'offline', label: 'Paid at the lab' },
          ]}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.amount} label="Amount paid (₹)" inputMode="numeric" optional hint="When paid at the lab." />
          <SelectField field={fields.paymentMethod} label="Paid by" options={[{ value: '', label: 'Choose…' }, ...PAYMENT_METHODS.map((method) => ({ value: method, label: method }))]} />
        </div>
        <TextField field={fields.notes} label="Notes" optional />
        <PendingButton pendingLabel="Booking...">Make the booking</PendingButton>
      </Form>
    </section>
  )
}
