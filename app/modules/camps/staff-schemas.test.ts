import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { batchDetails, BatchSchema, campDetails, CampSchema, CancelRegistrationSchema, MoveRegistrationSchema, NewCampSchema } from './staff-schemas'
import { paiseToRupeesInput, rupeesToPaise } from '~/lib/money'

/** The errors a form gets back, field by field, from what a browser posts. */
function errors(schema: z.ZodObject, values: Record<string, string>) {
  const form = new FormData()
  for (const [name, value] of Object.entries(values)) form.append(name, value)
  const reply = parseWithZod(form, { schema }).reply()
  return Object.fromEntries(Object.entries(reply.error ?? {}).map(([name, messages]) => [name, messages?.[0]]))
}

const camp = {
  code: 'camp3',
  name: 'Camp 3',
  startsOn: '2031-08-08',
  endsOn: '2031-08-16',
  venue: 'PDCSE, Bangalore',
  earlyBirdPrice: '35,000',
  regularPrice: '40000',
  earlyBirdDeadline: '2031-07-15',
  registration: 'open',
  'batches[0].name': 'Morning',
  'batches[0].code': 'morning',
  'batches[0].start1': '09:00',
  'batches[0].end1': '10:30',
  'batches[0].start2': '13:00',
  'batches[0].end2': '14:30',
  'batches[0].capacity': '30',
}

describe('prices typed in rupees', () => {
  it('become exact paise, with or without grouping commas, a rupee sign or paise', () => {
    expect(rupeesToPaise('35000')).toBe(35_000_00)
    expect(rupeesToPaise('35,000')).toBe(35_000_00)
    expect(rupeesToPaise(' ₹ 1,00,000 ')).toBe(1_00_000_00)
    expect(rupeesToPaise('35000.5')).toBe(35_000_50)
    expect(rupeesToPaise('35,000.25')).toBe(35_000_25)
    // 0.29 × 100 is 28.999999999999996 in floating point; digits read as text are exact.
    expect(rupeesToPaise('0.29')).toBe(29)
    expect(rupeesToPaise('1234567.89')).toBe(1_234_567_89)
  })

  it('are refused when they are not an amount of rupees and paise', () => {
    for (const text of ['', 'abc', '-500', '35.123', '35,000.', '.50', '3 5000', '35,,000', ',35000', '1e5', '35000 rupees']) {
      expect(rupeesToPaise(text), text).toBeNull()
    }
  })

  it('are shown for editing as staff type them', () => {
    expect(paiseToRupeesInput(35_000_00)).toBe('35,000')
    expect(paiseToRupeesInput(1_00_000_50)).toBe('1,00,000.50')
    expect(rupeesToPaise(paiseToRupeesInput(1_00_000_50))).toBe(1_00_000_50)
  })
})

describe('the new camp form', () => {
  it('accepts a complete camp and gives the domain prices in paise and one or two sessions per batch', () => {
    const form = new FormData()
    for (const [name, value] of Object.entries({ ...camp, 'batches[1].name': 'Evening', 'batches[1].code': 'evening', 'batches[1].start1': '17:00', 'batches[1].end1': '18:30', 'batches[1].capacity': '0' })) form.append(name, value)
    const submission = parseWithZod(form, { schema: NewCampSchema })
    expect(submission.status).toBe('success')
    if (submission.status !== 'success') return
    expect(campDetails(submission.value)).toEqual({
      name: 'Camp 3',
      startsOn: '2031-08-08',
      endsOn: '2031-08-16',
      venue: 'PDCSE, Bangalore',
      earlyBirdPricePaise: 35_000_00,
      regularPricePaise: 40_000_00,
      earlyBirdDeadline: '2031-07-15',
      isOpen: true,
      siblingDiscount: null,
    })
    expect(submission.value.batches.map(batchDetails)).toEqual([
      { name: 'Morning', code: 'morning', capacity: 30, timeRanges: [{ start: '09:00', end: '10:30' }, { start: '13:00', end: '14:30' }] },
      { name: 'Evening', code: 'evening', capacity: 0, timeRanges: [{ start: '17:00', end: '18:30' }] },
    ])
  })

  it('names each missing field', () => {
    expect(errors(NewCampSchema, {})).toEqual({
      code: 'Please enter a code',
      name: 'Please enter the camp’s name',
      startsOn: 'Please enter the first day',
      endsOn: 'Please enter the last day',
      venue: 'Please enter the venue',
      earlyBirdPrice: 'Please enter the early-bird price in rupees, such as 35,000',
      regularPrice: 'Please enter the regular price in rupees, such as 35,000',
      earlyBirdDeadline: 'Please enter the last day of the early-bird price',
      registration: 'Please choose whether registration is open',
      batches: 'Please add at least one batch',
    })
  })

  it('refuses prices that are not rupees, nothing, or too much', () => {
    expect(errors(NewCampSchema, { ...camp, earlyBirdPrice: '35.123', regularPrice: 'forty thousand' })).toEqual({
      earlyBirdPrice: 'Please enter the early-bird price in rupees, such as 35,000',
      regularPrice: 'Please enter the regular price in rupees, such as 35,000',
    })
    expect(errors(NewCampSchema, { ...camp, earlyBirdPrice: '0.50', regularPrice: '10,00,000.01' })).toEqual({
      earlyBirdPrice: 'The early-bird price must be at least ₹1',
      regularPrice: 'The regular price cannot be more than ₹10,00,000',
    })
  })

  it('keeps prices, days and the early-bird deadline in order', () => {
    expect(errors(NewCampSchema, { ...camp, regularPrice: '34,999.99', endsOn: '2031-08-07', earlyBirdDeadline: '2031-08-08' })).toEqual({
      regularPrice: 'The regular price must be at least the early-bird price',
      endsOn: 'The last day cannot be before the first day',
      earlyBirdDeadline: 'The early-bird price must end before the first day of the camp',
    })
    expect(errors(NewCampSchema, { ...camp, regularPrice: '35000', endsOn: '2031-08-08', earlyBirdDeadline: '2031-08-07' })).toEqual({})
  })

  it('checks every batch, and that no two share a code', () => {
    expect(errors(NewCampSchema, { ...camp, 'batches[1].name': 'Again', 'batches[1].code': 'morning', 'batches[1].start1': '11:00', 'batches[1].end1': '10:00', 'batches[1].start2': '12:00', 'batches[1].capacity': 'ten' })).toEqual({
      'batches[1].code': 'Each batch needs a code of its own',
      'batches[1].end1': 'The end time must be after the start time',
      'batches[1].end2': 'Please enter both times of the second session, or neither',
      'batches[1].capacity': 'Please enter a whole number of seats from 0 to 500',
    })
  })

  it('compares only values that are valid themselves', () => {
    expect(errors(NewCampSchema, { ...camp, startsOn: '8 August', earlyBirdPrice: 'a lot', 'batches[0].start1': 'nine' })).toEqual({
      startsOn: 'Please enter the first day',
      earlyBirdPrice: 'Please enter the early-bird price in rupees, such as 35,000',
      'batches[0].start1': 'Please enter the start time',
    })
  })
})

describe('the batch form', () => {
  const batch = { name: 'Batch 3', code: 'batch3', start1: '16:00', end1: '17:30', capacity: '20' }

  it('names each missing field', () => {
    expect(errors(BatchSchema, {})).toEqual({
      name: 'Please enter the batch’s name',
      code: 'Please enter a code',
      start1: 'Please enter the start time',
      end1: 'Please enter the end time',
      capacity: 'Please enter the number of seats',
    })
  })

  it('refuses a code that is not one, times that are not times, and seats that are not a whole number up to 500', () => {
    expect(errors(BatchSchema, { ...batch, code: 'Batch 3', start1: '4 PM', capacity: '2.5' })).toEqual({
      code: 'Use up to 40 lower-case letters, digits, - or _',
      start1: 'Please enter the start time',
      capacity: 'Please enter a whole number of seats from 0 to 500',
    })
    expect(errors(BatchSchema, { ...batch, capacity: '501' })).toEqual({ capacity: 'Please enter a whole number of seats from 0 to 500' })
  })

  it('wants the second session after the first, and ending after it starts', () => {
    expect(errors(BatchSchema, { ...batch, start2: '17:00', end2: '18:00' })).toEqual({ start2: 'The second session must start after the first one ends' })
    expect(errors(BatchSchema, { ...batch, start2: '19:00', end2: '18:00' })).toEqual({ end2: 'The end time must be after the start time' })
    expect(errors(BatchSchema, { ...batch, end2: '18:00' })).toEqual({ start2: 'Please enter both times of the second session, or neither' })
    expect(errors(BatchSchema, { ...batch, start2: '17:30', end2: '19:00' })).toEqual({})
  })
})

describe('moving and cancelling a registration', () => {
  it('asks for the batch to move to, and whether to refund', () => {
    expect(errors(MoveRegistrationSchema, { reference: 'CMP-0123456789', toBatch: '' })).toEqual({ toBatch: 'Please choose the batch to move to' })
    expect(errors(CancelRegistrationSchema, { reference: 'CMP-0123456789' })).toEqual({ refund: 'Please choose whether to refund the payment' })
    expect(errors(CancelRegistrationSchema, { reference: 'CMP-0123456789', refund: 'yes' })).toEqual({})
  })
})

describe('the sibling price on the camp form', () => {
  const details = { name: 'Camp 3', startsOn: '2031-08-08', endsOn: '2031-08-16', venue: 'PDCSE, Bangalore', earlyBirdPrice: '35,000', regularPrice: '40,000', earlyBirdDeadline: '2031-07-15', registration: 'open' }
  const parsed = (values: Record<string, string>) => {
    const form = new FormData()
    for (const [name, value] of Object.entries({ ...details, ...values })) form.append(name, value)
    const submission = parseWithZod(form, { schema: CampSchema })
    return submission.status === 'success' ? campDetails(submission.value).siblingDiscount : submission.reply().error
  }

  it('is none without a choice or with none chosen (whatever the boxes hold), a percentage in basis points, or an amount in paise', () => {
    expect(parsed({})).toBeNull()
    expect(parsed({ siblingPrice: 'none', siblingPercent: '10', siblingAmount: 'abc' })).toBeNull()
    expect(parsed({ siblingPrice: 'percent', siblingPercent: '10' })).toEqual({ kind: 'percent', value: 1000 })
    expect(parsed({ siblingPrice: 'percent', siblingPercent: '0.01' })).toEqual({ kind: 'percent', value: 1 })
    expect(parsed({ siblingPrice: 'percent', siblingPercent: '100 %' })).toEqual({ kind: 'percent', value: 100_00 })
    expect(parsed({ siblingPrice: 'amount', siblingAmount: '₹2,500.50' })).toEqual({ kind: 'amount', value: 2_500_50 })
    expect(parsed({ siblingPrice: 'amount', siblingAmount: '39,999.99' })).toEqual({ kind: 'amount', value: 39_999_99 })
  })

  it('says what is wrong next to the box that counts', () => {
    const percent = 'Please enter the percentage off from 0.01 to 100, such as 10'
    for (const value of ['', '0', '0.001', '100.01', 'ten', '-5']) expect(errors(CampSchema, { ...details, siblingPrice: 'percent', siblingPercent: value }), value).toEqual({ siblingPercent: percent })
    const amount = 'Please enter the amount off in rupees, such as 2,000'
    for (const value of ['', '0', 'two thousand', '-500']) expect(errors(CampSchema, { ...details, siblingPrice: 'amount', siblingAmount: value }), value).toEqual({ siblingAmount: amount })
    expect(errors(CampSchema, { ...details, siblingPrice: 'amount', siblingAmount: '40,000' })).toEqual({ siblingAmount: 'The amount off must be less than the regular price (₹40,000.00)' })
    expect(errors(CampSchema, { ...details, siblingPrice: 'half' })).toEqual({ siblingPrice: 'Please choose the sibling price' })
  })
})
