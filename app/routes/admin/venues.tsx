import { getFormProps } from '@conform-to/react'
import { Form, href, Link } from 'react-router'
import type { Route } from './+types/venues'
import { FormAlert, PendingButton, useValidatedForm } from '~/components/form-fields'
import { Panel } from '~/components/panel'
import { StaffTable } from '~/components/staff-table'
import { VenueFields } from '~/components/venue-fields'
import { LAB_STATE_CODE } from '~/lib/gst-states'
import { adminVenueLink } from '~/lib/links'
import { VenueSchema } from '~/modules/venues/schemas'
import { createVenue, listVenues } from '~/modules/venues/venues.server'
import { requireAdmin } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { submitOnlyForm } from '~/web/page-forms.server'
import { redirectWithToast } from '~/web/toast.server'
import { venuePhotoOptions, venueSummary } from '~/web/venues/venue-views.server'

export const meta: Route.MetaFunction = () => [{ title: 'Venues | Admin' }, { name: 'robots', content: 'noindex' }]

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request)
  const [venues, photos] = await Promise.all([listVenues(), venuePhotoOptions()])
  return { venues: venues.map(venueSummary), photos }
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request)
  return submitOnlyForm(await readForm(request), VenueSchema, async (value) => {
    const id = await createVenue({ id: admin.id, email: admin.email }, value)
    return redirectWithToast(adminVenueLink(id), { type: 'success', title: 'Venue added', description: `Open ${value.name}’s hours, and send staff and a kit there, from its page.` })
  })
}

export default function AdminVenues({ loaderData, actionData }: Route.ComponentProps) {
  const { venues, photos } = loaderData
  const [form, fields] = useValidatedForm(VenueSchema, { id: 'venue-new', lastResult: actionData, defaultValue: { stateCode: LAB_STATE_CODE } })
  return (
    <section>
      <h1 className="text-3xl font-extrabold text-brand-900">Venues</h1>
      <p className="mt-3 max-w-3xl text-muted">
        Where the lab works: its own room, and the pools, clubs and competition venues it takes a kit and staff to. Each venue has its own opening hours. A venue is closed, never deleted, so what happened there
        keeps its place.
      </p>
      <StaffTable caption="Venues, the lab’s own room first" columns={['Venue', 'City', 'State', 'Status']} className="card mt-6">
        {venues.map((venue) => (
          <tr key={venue.id} className="border-t border-slate-200 align-top">
            <td className="px-3 py-2">
              <Link to={adminVenueLink(venue.id)} className="link font-semibold">
                {venue.name}
              </Link>
            </td>
            <td className="px-3 py-2 text-ink">{venue.city}</td>
            <td className="px-3 py-2 text-ink">{venue.state}</td>
            <td className="px-3 py-2 text-ink">{venue.isHome ? 'Home' : venue.closedSince ? 'Closed' : 'Open'}</td>
          </tr>
        ))}
      </StaffTable>
      <p className="mt-3 text-sm text-muted">
        Kits go to a venue from the{' '}
        <Link to={href('/admin/kits')} className="link">
          Kits
        </Link>{' '}
        page.
      </p>
      <Panel id="add" title="Add a venue" spacing="mt-8">
        <Form method="post" {...getFormProps(form)} className="space-y-5">
          <FormAlert id={form.errorId} errors={form.errors} />
          <VenueFields fields={fields} photos={photos} />
          <PendingButton when={{ action: href('/admin/venues') }} pendingLabel="Adding...">
            Add the venue
          </PendingButton>
        </Form>
      </Panel>
    </section>
  )
}
