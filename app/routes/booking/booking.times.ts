import { data } from 'react-router'
import type { Route } from './+types/booking.times'
import { bookingTimesOn } from '~/modules/booking/public-booking.server'
import { BOOKABLE_DATE_MESSAGE, BookableDateSchema } from '~/modules/booking/schemas'

/** The times free on a date, for /booking's form as the date is picked. */
export async function loader({ request }: Route.LoaderArgs) {
  const date = BookableDateSchema.safeParse(new URL(request.url).searchParams.get('date'))
  if (!date.success) return data({ times: null, error: `${BOOKABLE_DATE_MESSAGE}, as yyyy-mm-dd` }, { status: 400 })
  return data({ times: await bookingTimesOn(date.data) }, { headers: { 'Cache-Control': 'no-store' } })
}
