import { count, eq, isNotNull, lt, sql } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { analyses, bookings, camps } from '~/db/schema'
import { KeptCache } from '~/lib/kept-cache.server'
import { durationMs, labToday } from '~/lib/lab-time'
import { figuresToShow, type FigureCounts } from './figures'
import { getSiteSettings } from './site.server'

/**
 * A swimmer, for counting swimmers analysed: their profile, or, for a guest's child who has none,
 * the booking's e-mail address and the swimmer's name as booked (letter case and outer spaces
 * aside). Each of a guest's bookings has its own analysis, so counting the bookings would count the
 * same child again at every visit; the address and name count them once, and two children of one
 * family keep their own names. A child analysed as a guest and later with a profile counts twice:
 * nothing ties the two together.
 */
const swimmerKey = sql`coalesce('profile ' || ${analyses.swimmerId}, 'guest ' || lower(${bookings.customerEmail}) || ' ' || lower(btrim(${bookings.swimmerName})))`

/** The lab's numbers, read now: analyses count once published, and a camp once its last day (in Asia/Kolkata) is over. */
export async function countFigures(now = new Date()): Promise<FigureCounts> {
  const [[delivered], [run]] = await Promise.all([
    db()
      .select({ swimmers: sql<number>`count(DISTINCT ${swimmerKey})`.mapWith(Number), analyses: count() })
      .from(analyses)
      .innerJoin(bookings, eq(bookings.id, analyses.bookingId))
      .where(isNotNull(analyses.publishedAt)),
    db().select({ camps: count() }).from(camps).where(lt(camps.endsOn, labToday(now))),
  ])
  return { swimmersAnalysed: delivered?.swimmers ?? 0, analysesDelivered: delivered?.analyses ?? 0, campsRun: run?.camps ?? 0 }
}

/**
 * How long an instance keeps the numbers. Publishing an analysis announces no change to the public
 * pages (it would empty every instance's page cache at each one), so the numbers follow by the clock:
 * a few minutes late is fine for them.
 */
const FIGURES_KEPT_MS = durationMs({ minutes: 5 })

const kept = new KeptCache<'figures', FigureCounts>(1)

/** The lab's numbers as the public pages show them, kept in memory for a few minutes. */
export function siteFigures(now = new Date()): Promise<FigureCounts> {
  return kept.get('figures', async () => ({ value: await countFigures(now), until: now.getTime() + FIGURES_KEPT_MS }), now.getTime())
}

/** The numbers the home page shows: those at or above the threshold staff set. */
export async function shownFigures(now = new Date()) {
  const [settings, counts] = await Promise.all([getSiteSettings(), siteFigures(now)])
  return figuresToShow(counts, settings)
}
