import { formatClockTime, formatLabClockTime } from '~/lib/lab-time'
import { adminBookingLink } from '~/lib/links'
import { formatRupees } from '~/lib/money'
import { formatPhone } from '~/lib/phone'
import type { DaySheetEntry, SheetConsent } from '~/modules/booking/day-sheet.server'
import { ISO_DATE, isRealDate } from '~/modules/forms/dates'
import { FIRST_DATE, LAST_DATE } from '~/modules/forms/fields'
import { notFoundUnless } from '~/web/refusals.server'

// What the day sheet shows of each place booked: the words staff read at the poolside and print.

/** The date an address names (yyyy-mm-dd, 2000 to 2100), or the site's 404 page. */
export function sheetDate(date: string | undefined) {
  notFoundUnless(isSheetDate(date))
  return date
}

export function isSheetDate(date: string | null | undefined): date is string {
  return typeof date === 'string' && ISO_DATE.test(date) && isRealDate(date) && date >= FIRST_DATE && date <= LAST_DATE
}

const ATTENDANCE = { attended: 'Checked in', no_show: 'No-show', none: 'Not yet' } as const

const CONSENT: Record<SheetConsent['state'], string> = {
  adult: 'Adult: their own',
  given: 'Parent’s consent given',
  pending: 'Parent’s consent pending',
  withdrawn: 'Parent’s consent withdrawn',
  refused: 'Parent’s consent refused',
  none: 'No parent’s consent',
}

export function daySheetRow(entry: DaySheetEntry) {
  const held = entry.status === 'pending'
  return {
    id: String(entry.bookingId),
    start: formatClockTime(entry.startTime),
    end: formatClockTime(entry.endTime),
    day: entry.dayCount > 1 ? `Day ${entry.dayNumber} of ${entry.dayCount}` : null,
    swimmer: entry.swimmerName,
    age: entry.age === null ? 'Age not asked' : `${entry.age} ${entry.age === 1 ? 'year' : 'years'}`,
    reference: entry.reference,
    href: adminBookingLink(entry.reference),
    contact: entry.contactName,
    phone: entry.phone ? { text: formatPhone(entry.phone), href: `tel:${entry.phone}` } : null,
    held,
    payment: held ? `Not paid: ${formatRupees(entry.amountPaise)} due` : entry.origin === 'complimentary' ? 'Complimentary' : 'Paid',
    holdNote: held && entry.holdExpiresAt ? `Held unpaid until ${formatLabClockTime(entry.holdExpiresAt)}` : null,
    attendance: entry.attendance ?? 'none',
    attendanceText: ATTENDANCE[entry.attendance ?? 'none'],
    consent: entry.consent.state === 'given' ? `${CONSENT.given} (${entry.consent.by})` : CONSENT[entry.consent.state],
    consentOk: entry.consent.state === 'adult' || entry.consent.state === 'given',
  }
}

export type DaySheetRow = ReturnType<typeof daySheetRow>
