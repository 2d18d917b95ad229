import { and, inArray, type SQL } from 'drizzle-orm'
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core'
import { bookings, campRegistrations, type BookingStatus } from '~/db/schema'
import type { Executor } from '~/db/client.server'

/**
 * The statuses a booking may move to from each status; camp registrations go the same way. A hold
 * ends unpaid (expired, payment_failed) or paid (confirmed); a payment that arrives after its hold
 * ended still confirms it while its seats are free, and otherwise goes back (refund_pending). Only a
 * confirmed booking is cancelled, and money on its way back ends as refunded.
 */
export const BOOKING_TRANSITIONS: Record<BookingStatus, readonly BookingStatus[]> = {
  pending: ['confirmed', 'refund_pending', 'expired', 'payment_failed'],
  expired: ['confirmed', 'refund_pending'],
  payment_failed: ['confirmed', 'refund_pending'],
  confirmed: ['cancelled'],
  cancelled: ['refunded'],
  refund_pending: ['refunded'],
  refunded: [],
}

const STATUSES = Object.keys(BOOKING_TRANSITIONS) as BookingStatus[]

/** The statuses a booking may become `to` from. */
export function statusesBefore(to: BookingStatus) {
  return STATUSES.filter((from) => BOOKING_TRANSITIONS[from].includes(to))
}

type BookingTable = typeof bookings | typeof campRegistrations

/**
 * Moves the rows of `table` that `where` picks to the status `to`, setting `values` alongside. The
 * table of transitions is the update's own guard: a row whose status may not become `to` is left
 * as it is, in the same statement. Chain `.returning()` to learn which rows moved.
 */
export function setStatus<Table extends BookingTable>(executor: Executor, table: Table, to: BookingStatus, where: SQL | undefined, values: Omit<PgUpdateSetSource<Table>, 'status'>) {
  return executor
    .update(table)
    .set({ ...values, status: to } as PgUpdateSetSource<Table>)
    .where(and(where, inArray(table.status, statusesBefore(to))))
}
