import { getFormProps } from '@conform-to/react'
import { Form, href, Link } from 'react-router'
import type { Route } from './+types/analysis-days'
import { AnalysisDayFields } from '~/components/analysis-day-fields'
import { FormAlert, PendingButton, useValidatedForm } from '~/components/form-fields'
import { Panel } from '~/components/panel'
import { StaffTable } from '~/components/staff-table'
import { adminAnalysisDayLink } from '~/lib/links'
import { AnalysisDaySchema } from '~/modules/booking/analysis-day-schemas'
import { analysisDayProducts, analysisDayVenues, createAnalysisDay, listAnalysisDays } from '~/modules/booking/analysis-days.server'
import { requireAdmin } from '~/web/auth.server'
import { analysisDayRow, productOptions, venueOptions } from '~/web/analysis-days/analysis-day-views.server'
import { readForm } from '~/web/form-data.server'
import { submitOnlyForm } from '~/web/page-forms.server'
import { redirectWithToast } from '~/web/toast.server'

export const meta: Route.MetaFunction = () => [{ title: 'Analysis days | Admin' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const now = new Date()
  const [days, venues, products] = await Promise.all([listAnalysisDays(now), analysisDayVenues(), analysisDayProducts()])
  return { days: days.map((day) => analysisDayRow(day, now)), venues: venueOptions(venues), products: productOptions(products) }
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  return submitOnlyForm(await readForm(request), AnalysisDaySchema, async (value) => {
    const id = await createAnalysisDay({ id: admin.id, email: admin.email }, value)
    return redirectWithToast(adminAnalysisDayLink(id), { type: 'success', title: 'Analysis day added', description: 'Check its venue, kits and staff below, then publish it.' })
  })
}

export default function AdminAnalysisDays({ loaderData, actionData }: Route.ComponentProps) {
  const { days, venues, products } = loaderData
  const [form, fields] = useValidatedForm(AnalysisDaySchema, { id: 'analysis-day-new', lastResult: actionData, defaultValue: { slotMinutes: '20', rigs: '1', hostSeats: '0' } })
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Analysis days</h1>
      <p className="mt-3 max-w-3xl text-muted">
        The lab’s kit at a venue away from the lab for a day or a few, selling one analysis in slots. A day is a draft until it is published; then its host’s link books the seats kept for the host, and
        from the time booking opens, everyone books.
      </p>
      {days.length === 0 ? (
        <p className="mt-6 text-ink">No analysis day yet.</p>
      ) : (
        <StaffTable caption="Analysis days, those to come first" columns={['Dates', 'Where', 'What', 'Capacity', 'Seats held', 'State']} className="card mt-6">
          {days.map((day) => (
            <tr key={day.id} className="border-t border-slate-200 align-top">
              <td className="px-3 py-2">
                <Link to={adminAnalysisDayLink(day.id)} className="link font-semibold">
                  {day.dates}
                </Link>
                <span className="block text-muted">{day.hours}</span>
              </td>
              <td className="px-3 py-2 text-ink">
                {day.city}
                <span className="block text-muted">{day.venueName}</span>
              </td>
              <td className="px-3 py-2 text-ink">{day.productName}</td>
              <td className="px-3 py-2 text-ink">{day.capacity}</td>
              <td className="px-3 py-2 text-ink">{day.seats}</td>
              <td className="px-3 py-2 text-ink">{day.state}</td>
            </tr>
          ))}
        </StaffTable>
      )}
      <Panel id="add" title="Add an analysis day" lead="Nothing is offered to anyone until you publish the day from its page." spacing="mt-8">
        <Form method="post" {...getFormProps(form)} className="space-y-5">
          <FormAlert id={form.errorId} errors={form.errors} />
          <AnalysisDayFields fields={fields} venues={venues} products={products} />
          <PendingButton when={{ action: href('/admin/analysis-days') }} pendingLabel="Adding...">
            Add the analysis day
          </PendingButton>
        </Form>
      </Panel>
    </section>
  )
}
