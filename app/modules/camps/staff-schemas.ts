// The staff's camp forms: their rules and messages, used by the server actions and, in the browser,
// for validation as you type. Nothing server-only may be imported here.
import { z } from 'zod'
import { formatRupees, percentToBasisPoints, rupeesToPaise, type Discount } from '~/lib/money'
import { DateSchema } from '~/modules/booking/schemas'
import { dateField } from '~/modules/forms/fields'

/** The highest fee a form accepts (₹10,00,000), far above any camp and well inside an integer of paise. */
const MAX_PRICE_PAISE = 10_00_000_00
const MAX_BATCH_CAPACITY = 500

const rupees = (what: string) => {
  const message = `Please enter the ${what} in rupees, such as 35,000`
  return z
    .string({ error: message })
    .trim()
    .refine((text) => rupeesToPaise(text) !== null, message)
    .transform((text) => rupeesToPaise(text)!)
    .pipe(z.number().min(100, `The ${what} must be at least ₹1`).max(MAX_PRICE_PAISE, `The ${what} cannot be more than ₹10,00,000`))
}

const code = z
  .string({ error: 'Please enter a code' })
  .trim()
  .regex(/^[a-z0-9_-]{1,40}$/, 'Use up to 40 lower-case letters, digits, - or _')

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/
const time = (message: string) => z.string({ error: message }).regex(TIME, message)
const optionalTime = z.string().regex(TIME, 'Please enter a time such as 13:00').optional()

// Checks across fields run even when a field failed its own rule or is missing (so every error
// shows at once); they compare only values that passed their own rules.
const always = { when: () => true }
const isTime = (value: unknown): value is string => typeof value === 'string' && TIME.test(value)
const isDate = (value: unknown): value is string => DateSchema.safeParse(value).success
const isPaise = (value: unknown): value is number => typeof value === 'number'

const SIBLING_PERCENT_MESSAGE = 'Please enter the percentage off from 0.01 to 100, such as 10'
const SIBLING_AMOUNT_MESSAGE = 'Please enter the amount off in rupees, such as 2,000'

/** The sibling price the form describes, once its fields passed their rules; null for none. */
function siblingDiscountIn(camp: { siblingPrice?: string; siblingPercent?: string; siblingAmount?: string }): Discount | null {
  if (camp.siblingPrice === 'percent') return { kind: 'percent', value: percentToBasisPoints(camp.siblingPercent ?? '') ?? 0 }
  if (camp.siblingPrice === 'amount') return { kind: 'amount', value: rupeesToPaise(camp.siblingAmount ?? '') ?? 0 }
  return null
}

const campShape = {
  name: z.string({ error: 'Please enter the camp’s name' }).trim().min(1, 'Please enter the camp’s name').max(100, 'Please use at most 100 characters'),
  startsOn: dateField('Please enter the first day'),
  endsOn: dateField('Please enter the last day'),
  venue: z.string({ error: 'Please enter the venue' }).trim().min(1, 'Please enter the venue').max(200, 'Please use at most 200 characters'),
  earlyBirdPrice: rupees('early-bird price'),
  regularPrice: rupees('regular price'),
  earlyBirdDeadline: dateField('Please enter the last day of the early-bird price'),
  registration: z.enum(['open', 'closed'], { error: 'Please choose whether registration is open' }),
  // A family's second and further swimmers: the percentage or the amount is checked against the
  // choice (and the regular price) below; a form without the choice has no sibling price.
  siblingPrice: z.enum(['none', 'percent', 'amount'], { error: 'Please choose the sibling price' }).default('none'),
  siblingPercent: z.string().trim().max(20, SIBLING_PERCENT_MESSAGE).optional(),
  siblingAmount: z.string().trim().max(20, SIBLING_AMOUNT_MESSAGE).optional(),
}

type CampFields = z.output<z.ZodObject<typeof campShape>>

function checkCamp(camp: Partial<CampFields>, ctx: z.RefinementCtx) {
  const { startsOn, endsOn, earlyBirdDeadline, earlyBirdPrice, regularPrice } = camp
  if (isDate(startsOn) && isDate(endsOn) && endsOn < startsOn) ctx.addIssue({ code: 'custom', path: ['endsOn'], message: 'The last day cannot be before the first day' })
  if (isPaise(earlyBirdPrice) && isPaise(regularPrice) && regularPrice < earlyBirdPrice) {
    ctx.addIssue({ code: 'custom', path: ['regularPrice'], message: 'The regular price must be at least the early-bird price' })
  }
  // Registration closes when the camp starts, so a later deadline would never end.
  if (isDate(startsOn) && isDate(earlyBirdDeadline) && earlyBirdDeadline >= startsOn) {
    ctx.addIssue({ code: 'custom', path: ['earlyBirdDeadline'], message: 'The early-bird price must end before the first day of the camp' })
  }
  checkSiblingPrice(camp, ctx)
}

function checkSiblingPrice(camp: Partial<CampFields>, ctx: z.RefinementCtx) {
  const sibling = siblingDiscountIn(camp)
  if (sibling?.kind === 'percent' && !(sibling.value >= 1 && sibling.value <= 100_00)) ctx.addIssue({ code: 'custom', path: ['siblingPercent'], message: SIBLING_PERCENT_MESSAGE })
  if (sibling?.kind === 'amount') {
    if (sibling.value <= 0) ctx.addIssue({ code: 'custom', path: ['siblingAmount'], message: SIBLING_AMOUNT_MESSAGE })
    else if (isPaise(camp.regularPrice) && sibling.value >= camp.regularPrice) {
      ctx.addIssue({ code: 'custom', path: ['siblingAmount'], message: `The amount off must be less than the regular price (${formatRupees(camp.regularPrice)})` })
    }
  }
}

const batchShape = {
  name: z.string({ error: 'Please enter the batch’s name' }).trim().min(1, 'Please enter the batch’s name').max(60, 'Please use at most 60 characters'),
  code,
  start1: time('Please enter the start time'),
  end1: time('Please enter the end time'),
  start2: optionalTime,
  end2: optionalTime,
  capacity: z
    .string({ error: 'Please enter the number of seats' })
    .trim()
    .regex(/^\d+$/, `Please enter a whole number of seats from 0 to ${MAX_BATCH_CAPACITY}`)
    .transform(Number)
    .pipe(z.number().max(MAX_BATCH_CAPACITY, `Please enter a whole number of seats from 0 to ${MAX_BATCH_CAPACITY}`)),
}

type BatchFields = z.output<z.ZodObject<typeof batchShape>>

function checkBatch(batch: Partial<BatchFields> | null | undefined, ctx: z.RefinementCtx, path: Array<string | number> = []) {
  if (!batch) return
  const { start1, end1, start2, end2 } = batch
  if (isTime(start1) && isTime(end1) && end1 <= start1) ctx.addIssue({ code: 'custom', path: [...path, 'end1'], message: 'The end time must be after the start time' })
  if (Boolean(start2) !== Boolean(end2)) {
    ctx.addIssue({ code: 'custom', path: [...path, start2 ? 'end2' : 'start2'], message: 'Please enter both times of the second session, or neither' })
  } else if (isTime(start2) && isTime(end2)) {
    if (end2 <= start2) ctx.addIssue({ code: 'custom', path: [...path, 'end2'], message: 'The end time must be after the start time' })
    else if (isTime(end1) && start2 < end1) ctx.addIssue({ code: 'custom', path: [...path, 'start2'], message: 'The second session must start after the first one ends' })
  }
}

export const CampSchema = z.object(campShape).superRefine(checkCamp, always)

export const BatchSchema = z.object(batchShape).superRefine((batch, ctx) => checkBatch(batch, ctx), always)

/** A batch being edited: which one travels in a hidden field. */
export const EditBatchSchema = z.object({ ...batchShape, batchId: z.string().regex(/^\d{1,9}$/).transform(Number) }).superRefine((batch, ctx) => checkBatch(batch, ctx), always)

export const NewCampSchema = z
  .object({
    ...campShape,
    code,
    batches: z.array(z.object(batchShape), { error: 'Please add at least one batch' }).min(1, 'Please add at least one batch'),
  })
  .superRefine((camp, ctx) => {
    checkCamp(camp, ctx)
    const seen = new Set<string>()
    const batches: Array<Partial<BatchFields> | null> = Array.isArray(camp.batches) ? camp.batches : []
    batches.forEach((batch, index) => {
      checkBatch(batch, ctx, ['batches', index])
      if (typeof batch?.code !== 'string') return
      if (seen.has(batch.code)) ctx.addIssue({ code: 'custom', path: ['batches', index, 'code'], message: 'Each batch needs a code of its own' })
      seen.add(batch.code)
    })
  }, always)

export const MoveRegistrationSchema = z.object({
  reference: z.string().regex(/^CMP-\d{10}$/),
  toBatch: z.string({ error: 'Please choose the batch to move to' }).regex(/^[a-z0-9_-]{1,40}$/, 'Please choose the batch to move to'),
})

export const CancelRegistrationSchema = z.object({
  reference: z.string().regex(/^CMP-\d{10}$/),
  refund: z.enum(['yes', 'no'], { error: 'Please choose whether to refund the payment' }),
})

/** A camp as the domain takes it: prices in paise, the early-bird deadline as a date in Bangalore. */
export type CampDetails = {
  name: string
  startsOn: string
  endsOn: string
  venue: string
  earlyBirdPricePaise: number
  regularPricePaise: number
  earlyBirdDeadline: string
  isOpen: boolean
  /** A family's second and each further swimmer pays this much less; null: everyone pays the fee. */
  siblingDiscount: Discount | null
}

export type BatchDetails = { code: string; name: string; timeRanges: Array<{ start: string; end: string }>; capacity: number }

export function campDetails(form: CampFields): CampDetails {
  return {
    name: form.name,
    startsOn: form.startsOn,
    endsOn: form.endsOn,
    venue: form.venue,
    earlyBirdPricePaise: form.earlyBirdPrice,
    regularPricePaise: form.regularPrice,
    earlyBirdDeadline: form.earlyBirdDeadline,
    isOpen: form.registration === 'open',
    siblingDiscount: siblingDiscountIn(form),
  }
}

/** A batch's daily sessions are one or two time ranges. */
export function batchDetails(form: BatchFields): BatchDetails {
  const second = form.start2 && form.end2 ? [{ start: form.start2, end: form.end2 }] : []
  return { code: form.code, name: form.name, timeRanges: [{ start: form.start1, end: form.end1 }, ...second], capacity: form.capacity }
}
