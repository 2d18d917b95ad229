import { and, desc, eq, isNotNull } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { bookings } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
import { KeptCache } from '~/lib/kept-cache.server'
import { labToday } from '~/lib/lab-time'
import { assertMayBeBooked, mayBeBooked } from '~/modules/swimmers/consent.server'
import { swimmerOf, swimmersOf, type Swimmer } from '~/modules/swimmers/swimmers.server'

// Who a signed-in customer books a session for: one of their account's swimmer profiles.

/** The account has no swimmer profile yet: nobody to book for. */
export class NoSwimmerError extends DomainError {
  constructor() {
    super('conflict', 'Please add the swimmer on My Swimmers first: a session is booked for one of your swimmers.')
  }
}

/** The form named no swimmer, or one that is not the account's. */
export class ChooseSwimmerError extends DomainError {
  constructor() {
    super('invalid', 'Please choose who will swim: one of the swimmers of your account.', 'swimmerId')
  }
}

export type SwimmerOption = { id: number; name: string; mayBeBooked: boolean }

type SwimmerChoices = { swimmers: SwimmerOption[]; preselected: number | null }

/**
 * Each account's choices, kept in memory (as its seats are) until the database announces a change
 * to swimmers, consents or bookings (drizzle/0009, 0015). Kept per lab day: a birthday can make a
 * swimmer an adult, who needs no consent.
 */
const kept = new KeptCache<string, SwimmerChoices>(10_000)

/** The tables whose changes the kept choices are read from, as the database names them. */
const CHOICE_TABLES = new Set(['swimmers', 'guardian_consents', 'bookings'])

/** Drops the kept choices after a change to `table` (empty when anything may have changed). */
export function forgetSwimmerChoices(table: string) {
  if (table === '' || CHOICE_TABLES.has(table)) kept.clear()
}

/**
 * The account's swimmers as the booking form offers them, each with whether it may be booked now
 * (an adult, or a minor with a parent's consent in force), and the one chosen at first: the
 * swimmer of the account's latest booking, else the first.
 */
export function swimmerChoices(accountId: number, now = new Date()): Promise<SwimmerChoices> {
  return kept.get(`${accountId}|${labToday(now)}`, async () => ({ value: await readSwimmerChoices(accountId, now), until: Infinity }), now.getTime())
}

async function readSwimmerChoices(accountId: number, now: Date): Promise<SwimmerChoices> {
  const [swimmers, [latest]] = await Promise.all([
    swimmersOf(accountId),
    db()
      .select({ swimmerId: bookings.swimmerId })
      .from(bookings)
      .where(and(eq(bookings.userId, accountId), isNotNull(bookings.swimmerId)))
      .orderBy(desc(bookings.createdAt), desc(bookings.id))
      .limit(1),
  ])
  const options = await Promise.all(swimmers.map(async (swimmer) => ({ id: swimmer.id, name: swimmer.name, mayBeBooked: await mayBeBooked(swimmer, now) })))
  const last = options.find((option) => option.id === latest?.swimmerId)
  return { swimmers: options, preselected: last?.id ?? options[0]?.id ?? null }
}

/**
 * The swimmer a signed-in customer books for: the one chosen on the form, which must be the
 * account's (ChooseSwimmerError otherwise, so nobody learns of another account's swimmers), or,
 * when the form names none, the account's only swimmer. A swimmer under 18 needs a parent's
 * consent in force (ConsentNeededError).
 */
export async function swimmerToBook(accountId: number, chosen: number | null, now = new Date()): Promise<Swimmer> {
  let swimmer: Swimmer | null
  if (chosen === null) {
    const swimmers = await swimmersOf(accountId)
    if (swimmers.length === 0) throw new NoSwimmerError()
    if (swimmers.length > 1) throw new ChooseSwimmerError()
    swimmer = swimmers[0]!
  } else {
    swimmer = await swimmerOf(accountId, chosen)
    if (!swimmer) throw new ChooseSwimmerError()
  }
  await assertMayBeBooked(swimmer, now, db(), 'swimmerId')
  return swimmer
}
