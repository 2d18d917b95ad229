import { describe, expect, it } from 'vitest'
import { datesBetween, sessionDays, timeSlotsOf, type AvailabilityWindow } from './time-slots'

const window = (overrides: Partial<AvailabilityWindow> = {}): AvailabilityWindow => ({
  date: '2026-12-01',
  startTime: '09:00',
  endTime: '12:00',
  slotDurationMinutes: 60,
  isHoliday: false,
  ...overrides,
})

describe('time slots of a window', () => {
  it('repeats the duration while each slot fits before the end', () => {
    expect(timeSlotsOf(window())).toEqual([
      { start: '09:00', end: '10:00' },
      { start: '10:00', end: '11:00' },
      { start: '11:00', end: '12:00' },
    ])
  })

  it('drops a last slot that would run past the end', () => {
    expect(timeSlotsOf(window({ endTime: '11:30', slotDurationMinutes: 45 }))).toEqual([
      { start: '09:00', end: '09:45' },
      { start: '09:45', end: '10:30' },
      { start: '10:30', end: '11:15' },
    ])
  })

  it('reads database times with seconds', () => {
    expect(timeSlotsOf(window({ startTime: '13:00:00', endTime: '14:30:00', slotDurationMinutes: 90 }))).toEqual([{ start: '13:00', end: '14:30' }])
  })

  it.each([
    ['no start time', { startTime: null }],
    ['no end time', { endTime: null }],
    ['no duration', { slotDurationMinutes: null }],
    ['a zero duration', { slotDurationMinutes: 0 }],
    ['a duration longer than the window', { slotDurationMinutes: 240 }],
    ['a holiday', { isHoliday: true }],
  ])('yields nothing for %s', (_, overrides) => {
    expect(timeSlotsOf(window(overrides))).toEqual([])
  })
})

describe('the three days of a session', () => {
  const windows = [
    window({ date: '2026-12-01' }),
    window({ date: '2026-12-02', isHoliday: true }),
    window({ date: '2026-12-03', startTime: '10:00' }),
    window({ date: '2026-12-04' }),
    window({ date: '2026-12-07' }),
    window({ date: '2026-12-08' }),
  ]

  it('are the chosen date and the next two dates offering the same time slot', () => {
    expect(sessionDays(windows, '2026-12-01', '09:00')).toEqual(['2026-12-01', '2026-12-04', '2026-12-07'])
    expect(sessionDays(windows, '2026-12-01', '10:00')).toEqual(['2026-12-01', '2026-12-03', '2026-12-04'])
  })

  it('need two later dates with that time slot', () => {
    expect(sessionDays(windows, '2026-12-07', '09:00')).toBeNull()
    expect(sessionDays(windows, '2026-12-08', '11:00')).toBeNull()
  })

  it('cannot start on a date that does not offer the time slot', () => {
    expect(sessionDays(windows, '2026-12-02', '09:00')).toBeNull()
    expect(sessionDays(windows, '2026-12-03', '09:00')).toBeNull()
  })
})

it('lists the dates of a range', () => {
  expect(datesBetween('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02'])
})
