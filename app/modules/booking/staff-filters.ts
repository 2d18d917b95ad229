import { z } from 'zod'
import { BOOKING_STATUSES } from '~/db/schema'
import { DateSchema } from './schemas'

/** The bookings list's filters from a URL (the page and its CSV read the same ones); bad values are ignored. */
const FiltersSchema = z.object({
  from: DateSchema.optional().catch(undefined),
  to: DateSchema.optional().catch(undefined),
  status: z.enum(BOOKING_STATUSES).optional().catch(undefined),
  product: z.string().max(60).optional().catch(undefined),
  q: z.string().max(100).optional().catch(undefined),
})

export function bookingFilters(params: URLSearchParams) {
  return FiltersSchema.parse(Object.fromEntries(params))
}
