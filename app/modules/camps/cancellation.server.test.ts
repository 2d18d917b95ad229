import { describe, expect, it } from 'vitest'
import { addSeconds, labInstant } from '~/lib/lab-time'
import { campCancelDeadline, campCancelOptions } from './cancellation.server'

// The refund policy's rule for a camp place: the family may cancel it until 24 hours before the
// first session of its batch on the camp's first day, in Bangalore whatever the server's zone.

const BATCH = [
  { start: '13:00', end: '14:30' },
  { start: '09:00', end: '10:30' },
]
const place = { status: 'confirmed', accountId: 7, startsOn: '2027-08-08', timeRanges: BATCH }

describe('cancelling a camp place', () => {
  it('is open until 24 hours before the batch’s earliest session on the first day, in Bangalore', () => {
    const deadline = campCancelDeadline('2027-08-08', BATCH)
    expect(deadline).toEqual(labInstant('2027-08-07', '09:00'))
    expect(deadline.toISOString()).toBe('2027-08-07T03:30:00.000Z')
    expect(campCancelOptions(place, 7, addSeconds(deadline, -1))).toEqual({ allowed: true, until: '9:00 AM IST on 7 August 2027' })
    expect(campCancelOptions(place, 7, deadline)).toEqual({ allowed: false, reason: 'Camp registrations can be cancelled up to 24 hours before the first session of the batch. Please contact us.' })
  })

  it('is offered only to the account that registered the place, and only while it is confirmed', () => {
    const early = labInstant('2027-07-01', '12:00')
    expect(campCancelOptions(place, 8, early)).toBeNull()
    expect(campCancelOptions({ ...place, accountId: null }, 7, early)).toBeNull()
    for (const status of ['pending', 'cancelled', 'refund_pending', 'refunded']) expect(campCancelOptions({ ...place, status }, 7, early)).toBeNull()
  })
})
