import { data } from 'react-router'
import type { Route } from './+types/booking.times'
import { labToday } from '~/lib/format'
import { bookingTimesOn } from '~/modules/booking/public-booking.server'
import { DateSchema } from '~/modules/booking/schemas'

/** The times free on a date, for /booking's form as the date is picked. */
export async function loader({ request }: Route.LoaderArgs) {
  const date = DateSchema.safeParse(new URL(request.url).searchParams.get('date'))
  if (!date.success || date.data < labToday()) return data({ times: null, error: 'Choose a date from today on, as yyyy-mm-dd' }, { status: 400 })
  return data({ times: await bookingTimesOn(date.data) }, { headers: { 'Cache-Control': 'no-store' } })
}
