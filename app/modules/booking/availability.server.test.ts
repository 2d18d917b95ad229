import { describe, expect, it } from 'vitest'
import { createCustomers, setWindows } from '../../../tests/support/booking'
import { useTestDatabase } from '../../../tests/support/test-database'
import { daySchedule, INCOMPLETE_SESSION_REASON, monthCalendar, planSession, type WindowRow } from './availability.server'
import { holdSession, SlotUnavailableError } from './holds.server'

useTestDatabase()

// 1 December 2026, 10:00 in Bangalore (04:30 UTC).
const MORNING = new Date('2026-12-01T04:30:00Z')

const hold = (customer: Awaited<ReturnType<typeof createCustomers>>[number], date: string, start: string, now = MORNING) =>
  holdSession({ customer, productCode: 'biomechanical_package', date, start, days: 3, now })

describe('a 3-day session', () => {
  const window = (id: number, date: string, overrides: Partial<WindowRow> = {}): WindowRow => ({
    id,
    date,
    startTime: '09:00',
    endTime: '12:00',
    slotDurationMinutes: 60,
    isHoliday: false,
    capacity: 1,
    closed: [],
    ...overrides,
  })

  it('takes the chosen date, then the next two dates that offer the same time slot', () => {
    const windows = [
      window(1, '2026-12-02'),
      window(2, '2026-12-03', { startTime: '13:00', endTime: '15:00' }),
      window(3, '2026-12-05'),
      window(4, '2026-12-07'),
      window(5, '2026-12-08'),
    ]
    expect(planSession(windows, '2026-12-02', '10:00', 3)).toEqual([
      { dayNumber: 1, date: '2026-12-02', windowId: 1, start: '10:00', end: '11:00', capacity: 1 },
      { dayNumber: 2, date: '2026-12-05', windowId: 3, start: '10:00', end: '11:00', capacity: 1 },
      { dayNumber: 3, date: '2026-12-07', windowId: 4, start: '10:00', end: '11:00', capacity: 1 },
    ])
  })

  it('is not offered when fewer than two later dates offer the time slot', () => {
    expect(planSession([window(1, '2026-12-02'), window(2, '2026-12-03')], '2026-12-02', '09:00', 3)).toBeNull()
    expect(planSession([window(1, '2026-12-02'), window(2, '2026-12-03')], '2026-12-02', '09:00', 1)).toHaveLength(1)
  })

  it('skips a date whose time slot staff have closed', () => {
    const windows = [window(1, '2026-12-02'), window(2, '2026-12-03', { closed: ['10:00'] }), window(3, '2026-12-04'), window(4, '2026-12-05')]
    expect(planSession(windows, '2026-12-02', '10:00', 3)?.map((day) => day.date)).toEqual(['2026-12-02', '2026-12-04', '2026-12-05'])
    expect(planSession(windows, '2026-12-03', '10:00', 3)).toBeNull()
  })

  it('is not offered from a date that does not have the time slot', () => {
    expect(planSession([window(1, '2026-12-02'), window(2, '2026-12-03'), window(3, '2026-12-04')], '2026-12-02', '12:00', 3)).toBeNull()
  })
})

describe('the time slots of a date', () => {
  it('are Available while every day of the session has a free seat', async () => {
    await setWindows([{ date: '2026-12-02' }, { date: '2026-12-03' }, { date: '2026-12-04' }])
    const schedule = await daySchedule({ date: '2026-12-02', userId: null, days: 3, now: MORNING })
    expect(schedule.map((slot) => [slot.start, slot.end, slot.state])).toEqual([
      ['09:00', '10:00', 'available'],
      ['10:00', '11:00', 'available'],
      ['11:00', '12:00', 'available'],
    ])
    expect(schedule[0]!.sessionDates).toEqual(['2026-12-02', '2026-12-03', '2026-12-04'])
  })

  it('are Full on Day 1 when a later day of the session has no seat left', async () => {
    await setWindows([{ date: '2026-12-02' }, { date: '2026-12-03' }, { date: '2026-12-04' }, { date: '2026-12-05' }])
    const [first, second] = await createCustomers(2)
    // The first customer's session from 3 December takes the last 09:00 seat on the 3rd and 4th.
    await hold(first!, '2026-12-03', '09:00')
    const schedule = await daySchedule({ date: '2026-12-02', userId: second!.userId, days: 3, now: MORNING })
    expect(schedule.find((slot) => slot.start === '09:00')?.state).toBe('full')
    expect(schedule.find((slot) => slot.start === '10:00')?.state).toBe('available')
  })

  it('are Booked for the customer who holds them, and Full for everyone else', async () => {
    await setWindows([{ date: '2026-12-02' }, { date: '2026-12-03' }, { date: '2026-12-04' }])
    const [holder, other] = await createCustomers(2)
    await hold(holder!, '2026-12-02', '10:00')
    const mine = await daySchedule({ date: '2026-12-02', userId: holder!.userId, days: 3, now: MORNING })
    const theirs = await daySchedule({ date: '2026-12-02', userId: other!.userId, days: 3, now: MORNING })
    expect(mine.find((slot) => slot.start === '10:00')?.state).toBe('booked')
    expect(theirs.find((slot) => slot.start === '10:00')?.state).toBe('full')
  })

  it('are Booked for a customer whose own session takes that time on a later day of this one', async () => {
    await setWindows([{ date: '2026-12-02' }, { date: '2026-12-03' }, { date: '2026-12-04' }, { date: '2026-12-05' }, { date: '2026-12-06' }])
    const [customer] = await createCustomers(1)
    // Their session from 4 December (4th, 5th, 6th at 10:00) overlaps one from the 2nd or 3rd at 10:00.
    await hold(customer!, '2026-12-04', '10:00')
    for (const date of ['2026-12-02', '2026-12-03']) {
      const schedule = await daySchedule({ date, userId: customer!.userId, days: 3, now: MORNING })
      expect([date, schedule.find((slot) => slot.start === '10:00')?.state]).toEqual([date, 'booked'])
      expect([date, schedule.find((slot) => slot.start === '11:00')?.state]).toEqual([date, 'available'])
    }
  })

  it('come from every window with a start, end and duration, and none from one without', async () => {
    await setWindows([
      { date: '2026-12-02', start: '09:00', end: '10:30', duration: 45 },
      { date: '2026-12-02', start: null, end: '17:00', duration: 60 },
      { date: '2026-12-02', start: '14:00', end: '15:00', duration: null },
      { date: '2026-12-03', start: '09:00', end: '10:30', duration: 45 },
      { date: '2026-12-04', start: '09:00', end: '10:30', duration: 45 },
    ])
    const schedule = await daySchedule({ date: '2026-12-02', userId: null, days: 3, now: MORNING })
    expect(schedule.map((slot) => `${slot.start}-${slot.end}`)).toEqual(['09:00-09:45', '09:45-10:30'])
  })

  it('a holiday closes its date and is skipped when looking for Days 2 and 3', async () => {
    await setWindows([{ date: '2026-12-02' }, { date: '2026-12-03' }, { date: '2026-12-03', holiday: true }, { date: '2026-12-04' }, { date: '2026-12-05' }])
    expect(await daySchedule({ date: '2026-12-03', userId: null, days: 3, now: MORNING })).toEqual([])
    const schedule = await daySchedule({ date: '2026-12-02', userId: null, days: 3, now: MORNING })
    expect(schedule[0]!.sessionDates).toEqual(['2026-12-02', '2026-12-04', '2026-12-05'])
  })
})

describe('"now" is Bangalore time, whatever the server zone (TZ=' + (process.env.TZ ?? 'unset') + ')', () => {
  it('after midnight in Bangalore, the previous date is past even while it is still that date in UTC', async () => {
    await setWindows(['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04'].map((date) => ({ date })))
    // 18:45 UTC on 1 December is 00:15 on 2 December in Bangalore.
    const now = new Date('2026-12-01T18:45:00Z')
    const yesterday = await daySchedule({ date: '2026-12-01', userId: null, days: 3, now })
    expect(yesterday.every((slot) => slot.state === 'not_available')).toBe(true)
    const today = await daySchedule({ date: '2026-12-02', userId: null, days: 3, now })
    expect(today.every((slot) => slot.state === 'available')).toBe(true)
    const calendar = await monthCalendar('2026-12', now, { days: 1 })
    expect(calendar.filter((day) => day.open).map((day) => day.date)).toEqual(['2026-12-02', '2026-12-03', '2026-12-04'])
  })

  it('a time slot is Not Available from the minute it starts in Bangalore', async () => {
    await setWindows(['2026-12-02', '2026-12-03', '2026-12-04'].map((date) => ({ date })))
    const before = await daySchedule({ date: '2026-12-02', userId: null, days: 3, now: new Date('2026-12-02T03:29:00Z') })
    const at = await daySchedule({ date: '2026-12-02', userId: null, days: 3, now: new Date('2026-12-02T03:30:00Z') })
    expect(before[0]!.state).toBe('available')
    expect(at[0]!.state).toBe('not_available')
    expect(at[1]!.state).toBe('available')
  })

  it('the calendar closes past dates, dates without a window, holidays, and today once its last slot has begun', async () => {
    await setWindows([{ date: '2026-11-30' }, { date: '2026-12-01' }, { date: '2026-12-02', holiday: true }, { date: '2026-12-03' }])
    const calendar = await monthCalendar('2026-12', new Date('2026-12-01T05:31:00Z'), { days: 1 })
    expect(calendar).toHaveLength(31)
    expect(calendar.filter((day) => day.open).map((day) => day.date)).toEqual(['2026-12-03'])
    expect(calendar.filter((day) => !day.closed).map((day) => day.date)).toEqual(['2026-12-01', '2026-12-03'])
    const earlier = await monthCalendar('2026-12', new Date('2026-12-01T05:29:00Z'), { days: 1 })
    expect(earlier.filter((day) => day.open).map((day) => day.date)).toEqual(['2026-12-01', '2026-12-03'])
  })
})

describe('a date is bookable only when a complete session fits', () => {
  const openDates = async (month: string, days: number, now = MORNING) => (await monthCalendar(month, now, { days })).filter((day) => day.open).map((day) => day.date)

  it('the calendar opens a date only when one of its times has the open days after it that a session needs', async () => {
    await setWindows([{ date: '2026-12-02' }, { date: '2026-12-03' }, { date: '2026-12-04' }, { date: '2026-12-05', start: '10:00', end: '11:00' }])
    // From the 2nd: the 2nd, 3rd and 4th at any time; from the 3rd: the 3rd, 4th and 5th at 10:00 only.
    expect(await openDates('2026-12', 3)).toEqual(['2026-12-02', '2026-12-03'])
    expect(await openDates('2026-12', 1)).toEqual(['2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05'])
  })

  it('a session may take its later days from the next month', async () => {
    await setWindows([{ date: '2026-12-31' }, { date: '2027-01-02' }, { date: '2027-01-04' }])
    expect(await openDates('2026-12', 3)).toEqual(['2026-12-31'])
    expect(await openDates('2027-01', 3)).toEqual([])
  })

  it('agrees with what a hold accepts: a date is open exactly when one of its times can be held', async () => {
    await setWindows([
      { date: '2026-12-01', start: '09:00', end: '12:00' },
      { date: '2026-12-02' },
      { date: '2026-12-03', start: '11:00', end: '12:00' },
      { date: '2026-12-04' },
      { date: '2026-12-05' },
      { date: '2026-12-06', holiday: true },
    ])
    const open = await openDates('2026-12', 3)
    const [customer] = await createCustomers(1)
    for (const date of ['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05', '2026-12-06']) {
      const schedule = await daySchedule({ date, userId: null, days: 3, now: MORNING })
      const holdable = schedule.some((slot) => slot.state === 'available')
      expect([date, open.includes(date)]).toEqual([date, holdable])
      for (const slot of schedule.filter((candidate) => candidate.state === 'not_available')) {
        await expect(hold(customer!, date, slot.start)).rejects.toBeInstanceOf(SlotUnavailableError)
      }
    }
    // 10:00 on the 1st has begun; 11:00 fits (1st, 2nd, 3rd); from the 4th, only two dates follow.
    expect(open).toEqual(['2026-12-01', '2026-12-02', '2026-12-03'])
  })

  it('is not found beyond the days a hold looks ahead', async () => {
    await setWindows([{ date: '2026-12-02' }, { date: '2026-12-03' }, { date: '2027-02-15' }])
    expect(await openDates('2026-12', 3)).toEqual([])
    expect((await daySchedule({ date: '2026-12-02', userId: null, days: 3, now: MORNING })).every((slot) => slot.state === 'not_available')).toBe(true)
  })

  it('a time that cannot start a complete session says why; one that has begun does not need to', async () => {
    await setWindows([{ date: '2026-12-01' }, { date: '2026-12-02' }, { date: '2026-12-03' }, { date: '2026-12-04' }])
    const tight = await daySchedule({ date: '2026-12-03', userId: null, days: 3, now: MORNING })
    expect(tight.map((slot) => [slot.start, slot.state, slot.reason])).toEqual([
      ['09:00', 'not_available', 'Not available: not enough open days after this date'],
      ['10:00', 'not_available', 'Not available: not enough open days after this date'],
      ['11:00', 'not_available', 'Not available: not enough open days after this date'],
    ])
    expect(INCOMPLETE_SESSION_REASON).toBe('Not available: not enough open days after this date')
    // 10:00 in Bangalore on the 1st: 09:00 has begun, 10:00 too; 11:00 fits (1st, 2nd, 3rd).
    const today = await daySchedule({ date: '2026-12-01', userId: null, days: 3, now: MORNING })
    expect(today.map((slot) => [slot.start, slot.state, slot.reason])).toEqual([
      ['09:00', 'not_available', undefined],
      ['10:00', 'not_available', undefined],
      ['11:00', 'available', undefined],
    ])
  })
})
