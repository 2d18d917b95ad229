import { gstStateName } from '~/lib/gst-states'
import { formatClockTime, formatLabDateTime, formatWeekdayDate } from '~/lib/lab-time'
import { formatPhone } from '~/lib/phone'
import type { PlacementReview } from '~/modules/booking/kits.server'
import { usablePhotos } from '~/modules/media/media.server'
import { describePeriod } from '~/modules/venues/periods.server'
import { venueById, VenueNotFoundError, type Venue } from '~/modules/venues/venues.server'
import { rowId } from '~/lib/row-id'
import { notFoundUnless } from '~/web/refusals.server'

// What the staff's venue and kit pages show of venues, who is sent where and where each kit goes:
// dates and times in the lab's time, ranges as a sentence reads them.

/** The venue an address names (`:venueId`), or the site's 404 page. */
export async function foundVenue(venueId: string | undefined) {
  const id = rowId(venueId)
  const venue =
    id === null
      ? null
      : await venueById(id).catch((error: unknown) => {
          if (error instanceof VenueNotFoundError) return null
          throw error
        })
  notFoundUnless(venue)
  return venue
}

/** The venue photos staff may choose, for the venue forms' list. */
export async function venuePhotoOptions() {
  return (await usablePhotos('venue')).map((photo) => ({ value: String(photo.id), label: photo.title }))
}

/** A venue's details as its form starts with them. */
export function venueFormValues(venue: Venue) {
  return {
    name: venue.name,
    address: venue.address,
    city: venue.city,
    stateCode: venue.stateCode,
    mapUrl: venue.mapUrl ?? '',
    photoId: venue.photoId === null ? '' : String(venue.photoId),
    hostName: venue.hostName ?? '',
    hostEmail: venue.hostEmail ?? '',
    hostPhone: venue.hostPhone ?? '',
    travelMinutes: String(venue.travelMinutes),
    gstin: venue.gstin ?? '',
    invoiceSeries: venue.invoiceSeries ?? '',
  }
}

/** A venue as the list and its page name it: where it is, and whether it is the lab's own room or closed. */
export function venueSummary(venue: Venue) {
  return {
    id: venue.id,
    name: venue.name,
    city: venue.city,
    state: gstStateName(venue.stateCode),
    isHome: venue.isHome,
    closedSince: venue.closedAt ? formatLabDateTime(venue.closedAt) : null,
  }
}

/** The venue's address, map, travel time, host and the lab's GST registration there, for its page. */
export function venueDetails(venue: Venue) {
  return {
    address: venue.address,
    mapUrl: venue.mapUrl,
    travel: venue.isHome ? null : `${venue.travelMinutes} minutes from the lab, each way`,
    host: [venue.hostName, venue.hostEmail, venue.hostPhone && formatPhone(venue.hostPhone)].filter(Boolean).join(', ') || null,
    gstRegistration: venue.gstin ? `GSTIN ${venue.gstin}, invoices numbered ${venue.invoiceSeries}/…` : null,
  }
}

type PlacementRow = { id: number; kitName: string; venueId: number; venueName: string; city: string; startsAt: Date; endsAt: Date; leavesAt: Date; backAt: Date; note: string | null }

/** A kit's placement: where, when it is in use there, and when it is away from the lab (travel, set-up and packing included). */
export function placementRow(placement: PlacementRow) {
  return {
    id: placement.id,
    kitName: placement.kitName,
    venueId: placement.venueId,
    venueName: placement.venueName,
    city: placement.city,
    inUse: describePeriod(placement),
    away: describePeriod({ startsAt: placement.leavesAt, endsAt: placement.backAt }),
    note: placement.note,
  }
}

type AssignmentRow = { id: number; name: string; email: string; startsAt: Date; endsAt: Date; note: string | null }

/** A staff member sent to a venue, and when they are there. */
export function assignmentRow(assignment: AssignmentRow) {
  return { id: assignment.id, name: assignment.name, email: assignment.email, when: describePeriod(assignment), note: assignment.note }
}

/** What placing a kit would do, as the "Check" shows it before anything is saved. */
export function placementReviewView(review: PlacementReview) {
  const byDate = new Map<string, string[]>()
  for (const slot of review.closing) byDate.set(slot.date, [...(byDate.get(slot.date) ?? []), slot.start])
  return {
    kitName: review.kitName,
    venueName: review.venueName,
    inUse: describePeriod(review.period),
    away: describePeriod(review.away),
    clash: review.clash && { venueName: review.clash.venueName, away: describePeriod(review.clash.away) },
    closing: review.closing.length,
    closingDates: [...byDate].map(([date, starts]) => ({ date: formatWeekdayDate(date), times: starts.map(formatClockTime).join(', ') })),
    stranded: review.stranded,
  }
}

export type PlacementReviewView = ReturnType<typeof placementReviewView>
