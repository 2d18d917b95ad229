import type { Holder } from '~/modules/holders/holders.server'
import { getCatalogue, requireItem } from '~/modules/site/site.server'
import { recordBookingDeclaration } from '~/modules/swimmers/consent.server'
import { assertMayDeclareAsGuardian } from '~/modules/swimmers/consent.server'
import { GuardianDeclarationNeededError } from '~/modules/swimmers/swimmers.server'
import { DomainError } from '~/lib/domain-error'
import { addMonths, labToday } from '~/lib/lab-time'
import { daySchedule, monthCalendar, type TimeSlotState } from './availability.server'
import { SOMEONE_ELSE } from './fields'
import { holdSession, lastBookableDate, type Customer } from './holds.server'
import { BOOKING_TIMES, namesMinor, SINGLE_SERVICES, SWIMMER_AGE_MESSAGE, SWIMMER_NAME_MESSAGE, type PublicBookingInput } from './schemas'
import { ChooseSwimmerError, swimmerChoices, swimmerToBook } from './swimmer-choice.server'

export type BookingTime = { time: string; state: TimeSlotState }

/**
 * /booking's nine times on a date, each Available only when a seat is free at that time (the same
 * seats as the 3-day sessions) and it has not begun in Bangalore.
 */
export async function bookingTimesOn(date: string, now = new Date()): Promise<BookingTime[]> {
  const schedule = await daySchedule({ date, userId: null, days: 1, now })
  return BOOKING_TIMES.map((time) => ({ time, state: schedule.find((slot) => slot.start === time)?.state ?? 'not_available' }))
}

/** Said next to /booking's date when the date chosen has no times to offer. */
export const NO_TIMES_MESSAGE = 'There are no open times on this date. Please choose another date.'

/**
 * The dates /booking offers, from today as far as a single session may be booked: those on which
 * one of its times can still start a session (as /book-slot's calendar decides, so a hold accepts
 * it; a time may still be Full). And the dates the lab is closed (no opening hours, or a holiday)
 * up to the last open one: after that the lab has not yet set its hours.
 */
export async function bookingDates(now = new Date()): Promise<{ open: string[]; closed: string[] }> {
  const today = labToday(now)
  const last = lastBookableDate(1, today)
  const months: string[] = []
  for (let month = today.slice(0, 7); month <= last.slice(0, 7); month = addMonths(month, 1)) months.push(month)
  const calendars = await Promise.all(months.map((month) => monthCalendar(month, now, { days: 1, starts: BOOKING_TIMES })))
  const days = calendars.flat().filter((day) => day.date >= today && day.date <= last)
  const open = days.filter((day) => day.open).map((day) => day.date)
  const lastOpen = open.at(-1)
  return { open, closed: lastOpen ? days.filter((day) => day.closed && day.date < lastOpen).map((day) => day.date) : [] }
}

export function singleService(value: PublicBookingInput['service']) {
  return SINGLE_SERVICES.find((service) => service.value === value)!
}

/** The three services with their catalogue prices, in paise. */
/** How long a single session takes, as the catalogue says: "45-60 minutes", or each length there is. */
export function singleSessionLength(sessions: Array<{ duration: string }>) {
  return [...new Set(sessions.map((session) => session.duration))].join(' or ')
}

export async function singleServicePrices() {
  const catalogue = await getCatalogue()
  return SINGLE_SERVICES.map((service) => {
    const product = requireItem(catalogue, service.productCode)
    return { value: service.value, label: product.name, description: product.description, duration: product.duration, pricePaise: product.pricePaise }
  })
}

/**
 * What step 1 offers a signed-in customer under "Who will swim?": the account's swimmers as
 * /book-slot offers them, and someone else unless the account may not declare to be anyone's parent
 * or guardian.
 */
export async function bookingSwimmerChoices(accountId: number, now = new Date()) {
  const [choices, someoneElse] = await Promise.all([
    swimmerChoices(accountId, now),
    assertMayDeclareAsGuardian(accountId, now).then(
      () => true,
      (error: unknown) => {
        if (error instanceof DomainError) return false
        throw error
      },
    ),
  ])
  return { ...choices, someoneElse }
}

/** What a public booking form asks of who books and who swims, whatever it books. */
type BookingDetails = Pick<PublicBookingInput, 'name' | 'email' | 'phone' | 'notes' | 'whoSwims' | 'swimmerName' | 'swimmerAge' | 'guardianDeclaration'>

/** Who swims in a session booked on /booking: a swimmer profile of the account, or a name (and the age given with it). */
export type BookedSwimmer = { swimmerId: number | null; name: string; age: number | null; swimmingExperience: string | null; declaredByGuardian: boolean }

/**
 * Who swims in the session the details of step 1 book, checked as the hold checks it. Signed in
 * (`accountId`): one of the account's swimmers, chosen and checked as on /book-slot (swimmerToBook:
 * another account's swimmer is refused as one that does not exist, and a swimmer under 18 needs a
 * parent's consent in force). A guest: themselves. Either may name someone else with their age;
 * under 18 that needs the booking person's declaration as parent or guardian
 * (GuardianDeclarationNeededError), which an account known to be a minor's cannot make
 * (assertMayDeclareAsGuardian). The booking person stays the one who pays.
 */
export async function swimmerOfBooking(details: BookingDetails, accountId: number | null, now = new Date()): Promise<BookedSwimmer> {
  const chosen = details.whoSwims ?? 'myself'
  if (chosen === SOMEONE_ELSE) {
    if (accountId !== null) await assertMayDeclareAsGuardian(accountId, now)
    if (!details.swimmerName) throw new DomainError('invalid', SWIMMER_NAME_MESSAGE, 'swimmerName')
    if (details.swimmerAge === undefined) throw new DomainError('invalid', SWIMMER_AGE_MESSAGE, 'swimmerAge')
    const minor = namesMinor(details)
    if (minor && !details.guardianDeclaration) throw new GuardianDeclarationNeededError()
    return { swimmerId: null, name: details.swimmerName, age: Number(details.swimmerAge), swimmingExperience: null, declaredByGuardian: minor }
  }
  if (accountId !== null) {
    const swimmer = await swimmerToBook(accountId, chosen === 'myself' ? null : Number(chosen), now)
    return { swimmerId: swimmer.id, name: swimmer.name, age: null, swimmingExperience: swimmer.swimmingExperience, declaredByGuardian: false }
  }
  // A guest has no swimmer profiles to name.
  if (chosen !== 'myself') throw new ChooseSwimmerError()
  return { swimmerId: null, name: details.name, age: null, swimmingExperience: null, declaredByGuardian: false }
}

/** Holds the seat of a single session for the details of step 1 (holdForDetails). */
export async function holdSingleSession(details: PublicBookingInput, holder: Holder, now = new Date()) {
  return holdForDetails(details, holder, now, (booking) => holdSession({ ...booking, productCode: singleService(details.service).productCode, date: details.date, start: details.time }))
}

type DetailsHold = Pick<Parameters<typeof holdSession>[0], 'customer' | 'days' | 'notes' | 'holder' | 'recordWith' | 'now'>

/**
 * What a hold needs of the details of a public booking form: the customer, for `holder` (a signed-in
 * customer's booking is theirs), for the swimmer they name (swimmerOfBooking), and a declaration as
 * parent or guardian to keep with the booking, in its transaction. Refused (a DomainError) when the
 * swimmer may not be booked so.
 */
export async function bookingOfDetails(details: BookingDetails, holder: Holder, now: Date): Promise<DetailsHold & { swimmerName: string }> {
  const swimmer = await swimmerOfBooking(details, holder.userId, now)
  const email = details.email.toLowerCase()
  const customer: Customer = { userId: holder.userId, swimmerId: swimmer.swimmerId, swimmerName: swimmer.name, swimmerAge: swimmer.age, name: details.name, email, phone: details.phone || null, swimmingExperience: swimmer.swimmingExperience }
  return {
    customer,
    days: 1,
    notes: details.notes || null,
    holder,
    recordWith: swimmer.declaredByGuardian ? (tx, bookingId) => recordBookingDeclaration(tx, { bookingId, guardianName: details.name, email, now }) : undefined,
    now,
    swimmerName: swimmer.name,
  }
}

/** Holds a seat for the details of a public booking form (bookingOfDetails); `hold` names what is held. */
export async function holdForDetails<Held>(details: BookingDetails, holder: Holder, now: Date, hold: (booking: DetailsHold) => Promise<Held>) {
  const { swimmerName, ...booking } = await bookingOfDetails(details, holder, now)
  return { ...(await hold(booking)), swimmerName }
}
