import { and, desc, eq, isNotNull } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { bookings } from '~/db/schema'
import { DomainError } from '~/lib/domain-error'
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

/**
 * The account's swimmers as the booking form offers them, each with whether it may be booked now
 * (an adult, or a minor with a parent's consent in force), and the one chosen at first: the
 * swimmer of the account's latest booking, else the first.
 */
export async function swimmerChoices(accountId: number, now = new Date()): Promise<{ swimmers: SwimmerOption[]; preselected: number | null }> {
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
