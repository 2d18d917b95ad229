import { getFormProps } from '@conform-to/react'
import { Form, href, Link } from 'react-router'
import type { Route } from './+types/promo-codes'
import { FormAlert, PendingButton, useValidatedForm } from '~/components/form-fields'
import { PromoCodeFields } from '~/components/promo-code-fields'
import { StaffTable } from '~/components/staff-table'
import { requireAdmin } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { submitOnlyForm } from '~/web/page-forms.server'
import { redirectWithToast } from '~/web/toast.server'
import { promoCodeDetails, PromoCodeSchema } from '~/modules/promotions/staff-schemas'
import { createPromoCode, staffPromoCodes } from '~/modules/promotions/staff.server'
import { promoCodeRow } from '~/modules/promotions/staff-rows'
import { adminPromoCodeLink } from '~/lib/links'

export const meta: Route.MetaFunction = () => [{ title: 'Promo codes | Admin' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const codes = await staffPromoCodes()
  return { codes: codes.map((code) => ({ id: code.id, ...promoCodeRow(code) })) }
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  return submitOnlyForm(await readForm(request), PromoCodeSchema, async (value) => {
    const { id } = await createPromoCode({ id: admin.id, email: admin.email }, promoCodeDetails(value))
    return redirectWithToast(adminPromoCodeLink(id), { type: 'success', title: 'Promo code created', description: `${value.code} can be used now.` })
  })
}

export default function AdminPromoCodes({ loaderData, actionData }: Route.ComponentProps) {
  const { codes } = loaderData
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Promo codes</h1>
      <p className="mt-3 text-muted">Customers type a code when they pay for a session or a camp. Uses held are orders waiting for payment; a use comes back if the order is not paid.</p>
      <a href={href('/admin/promo-codes.csv')} download className="btn-secondary mt-4">
        Download promo codes (CSV)
      </a>
      {codes.length === 0 ? (
        <p className="mt-6 text-muted">No promo codes yet.</p>
      ) : (
        <StaffTable caption="Promo codes, newest first" columns={['Code', 'Discount', 'For', 'Valid', 'Uses', 'Per customer', 'Discount given', 'Status']} className="card mt-6">
          {codes.map((code) => (
            <tr key={code.id} className="border-t border-slate-200 align-top">
              <td className="px-3 py-2">
                <Link to={adminPromoCodeLink(code.id)} className="link font-mono" aria-label={`Edit ${code.code}`}>
                  {code.code}
                </Link>
                {code.description && <span className="block text-muted">{code.description}</span>}
              </td>
              <td className="px-3 py-2 text-ink">{code.discount}</td>
              <td className="px-3 py-2 text-ink">{code.products}</td>
              <td className="px-3 py-2 text-ink">{code.validity}</td>
              <td className="px-3 py-2 text-ink">
                {code.uses}
                <span className="block text-muted">{code.held}</span>
              </td>
              <td className="px-3 py-2 text-ink">{code.perCustomer}</td>
              <td className="px-3 py-2 text-ink">{code.discountGiven}</td>
              <td className="px-3 py-2 text-ink">{code.status}</td>
            </tr>
          ))}
        </StaffTable>
      )}
      <NewPromoCodeForm lastResult={actionData} />
    </section>
  )
}

function NewPromoCodeForm({ lastResult }: { lastResult: Route.ComponentProps['actionData'] }) {
  const [form, fields] = useValidatedForm(PromoCodeSchema, { lastResult, defaultValue: { discountKind: 'percent' } })
  return (
    <section aria-labelledby="new-promo-code" className="card mt-10 p-6">
      <h2 id="new-promo-code" className="text-xl font-bold text-ink">
        New promo code
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-6">
        <FormAlert id={form.errorId} errors={form.errors} />
        <PromoCodeFields fields={fields} />
        <PendingButton when={{ action: href('/admin/promo-codes') }} pendingLabel="Creating...">
          Create promo code
        </PendingButton>
      </Form>
    </section>
  )
}
