import type { Db } from '~/db/client.server'
import { analyses, bookings, camps } from '~/db/schema'
import { labInstant } from '~/lib/lab-time'

// The records the lab's numbers on the site are counted from, written straight into a database:
// analyses of bookings (published or drafts) and camps with their dates.

let references = 0

/** Who swims: an account's swimmer profile, or a guest's child named on the booking (no profile). */
export type Swimmer = { swimmerId: number | null; name: string; email: string }

/** A confirmed booking of the swimmer with its analysis, published at `publishedAt` or still a draft (null). */
export async function analysisOf(db: Db, swimmer: Swimmer, publishedAt: Date | null) {
  references += 1
  const [booking] = await db
    .insert(bookings)
    .values({ reference: `SWP-${String(8_000_000_000 + references)}`, productCode: 'race_analysis', swimmerId: swimmer.swimmerId, swimmerName: swimmer.name, customerName: 'Parent', customerEmail: swimmer.email, startTime: '09:00', endTime: '10:00', amountPaise: 100000, status: 'confirmed', confirmedAt: new Date() })
    .returning({ id: bookings.id })
  const [analysis] = await db.insert(analyses).values({ bookingId: booking!.id, swimmerId: swimmer.swimmerId, publishedAt }).returning({ id: analyses.id })
  return analysis!.id
}

/** A camp held from `startsOn` to `endsOn` (yyyy-mm-dd). */
export async function campHeld(db: Db, code: string, startsOn: string, endsOn: string) {
  await db.insert(camps).values({ code, name: `Camp ${code}`, startsOn, endsOn, venue: 'The pool', earlyBirdPricePaise: 100000, regularPricePaise: 120000, earlyBirdEndsAt: labInstant(startsOn) })
}
