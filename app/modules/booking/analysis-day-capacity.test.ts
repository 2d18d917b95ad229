import { describe, expect, it } from 'vitest'
import { capacityOfTyped } from './analysis-day-capacity'

// The sentence under the staff's form, worked out from the fields as they are typed.

const typed = { firstDate: '2030-12-07', lastDate: '2030-12-07', startTime: '09:00', endTime: '17:00', slotMinutes: '20', rigs: '1' }

describe('the capacity of the form as it is typed', () => {
  it('reads the fields as the day would be saved', () => {
    expect(capacityOfTyped(typed)?.sentence).toBe('1 rig × 8 h ÷ 20-minute slots = 24 swimmers')
    expect(capacityOfTyped({ ...typed, lastDate: '2030-12-08', slotMinutes: ' 45 ', rigs: '2', endTime: '12:30' })?.sentence).toBe('2 rigs × 3 h 30 min ÷ 45-minute slots × 2 dates = 16 swimmers')
  })

  it('is nothing while the form does not describe a day yet', () => {
    for (const over of [{ slotMinutes: '' }, { slotMinutes: '2' }, { slotMinutes: '1.5' }, { rigs: '0' }, { rigs: 'two' }, { startTime: '9:0' }, { endTime: '09:00' }, { lastDate: '2030-12-06' }, { lastDate: '2030-12-14' }, { firstDate: '' }, { lastDate: undefined }])
      expect(capacityOfTyped({ ...typed, ...over }), JSON.stringify(over)).toBeNull()
    // A week of dates is the most a day spans.
    expect(capacityOfTyped({ ...typed, lastDate: '2030-12-13' })?.total).toBe(168)
  })
})
