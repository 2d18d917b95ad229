// The rules of the staff's analysis forms (the editor and the reference bands), used by the server
// actions and, in the browser, for validation as you type. Nothing server-only may be imported here.
import { z } from 'zod'
import { optionalText, requiredText } from '~/lib/text-fields'
import { DISTANCES_METRES, FINDING_PRIORITIES, METRICS, POOL_LENGTHS_METRES, STROKES } from './catalog'

/**
 * How much one analysis holds. Far above what a session produces (a 3-day session analyses a few
 * events), and low enough that one page shows it all and no form can fill the database.
 */
export const LIMITS = {
  events: 12,
  metricsPerEvent: 200,
  customMetricsPerEvent: 20,
  findings: 20,
  drillsPerFinding: 8,
  summary: 4000,
  title: 120,
  text: 2000,
  label: 60,
  unit: 20,
  url: 500,
  level: 60,
} as const

/** The largest figure any metric takes (a 1500 m time is about 1000 seconds). */
const MAX_VALUE = 1_000_000

/**
 * A figure as staff type it: "1.85", "-3", "32,5" (a comma for the decimal point, as some software
 * exports) or a time "1:05.32" (minutes and seconds, read as 65.32 seconds). Null when it is not one.
 */
export function parseMetricValue(text: string): number | null {
  const value = text.trim().replace(/^(-?\d+),(\d+)$/, '$1.$2')
  const time = /^(\d{1,3}):([0-5]?\d(?:\.\d+)?)$/.exec(value)
  const number = time ? Number(time[1]) * 60 + Number(time[2]) : /^-?(?:\d+(?:\.\d*)?|\.\d+)$/.test(value) ? Number(value) : NaN
  return Number.isFinite(number) && Math.abs(number) <= MAX_VALUE ? number : null
}

export const NOT_A_NUMBER = 'Enter a number, for example 1.85 or a time as 1:05.32'

/** An optional figure: empty is "no value" (null), anything else must be a number. */
const optionalValue = z
  .string()
  .trim()
  .max(20, NOT_A_NUMBER)
  .optional()
  .refine((text) => !text || parseMetricValue(text) !== null, NOT_A_NUMBER)
  .transform((text) => (text ? parseMetricValue(text) : null))

const requiredValue = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(20, NOT_A_NUMBER)
    .refine((text) => parseMetricValue(text) !== null, NOT_A_NUMBER)
    .transform((text) => parseMetricValue(text)!)

const id = z.coerce.number().int().positive().max(2_147_483_647)

const strokeField = z.enum(STROKES.map((stroke) => stroke.value) as [string, ...string[]], { error: 'Choose a stroke' })
const distanceField = z.enum(DISTANCES_METRES.map(String) as [string, ...string[]], { error: 'Choose a distance' }).transform(Number)
const betterField = z.enum(['higher', 'lower'], { error: 'Choose whether a higher or a lower value is better' })

export const DetailsSchema = z.object({
  poolLength: z.enum(POOL_LENGTHS_METRES.map(String) as [string, ...string[]], { error: 'Choose the length of the pool' }).transform(Number),
  summary: optionalText(LIMITS.summary),
})

export const EventSchema = z.object({ stroke: strokeField, distance: distanceField })

export const RemoveEventSchema = z.object({ eventId: id })

/**
 * The figures of an event measured per segment: a split every 25 m up to 100 m and every 50 m
 * beyond, and the speed from 15 to 25 m into each length (25 to 35 and 35 to 45 m as well in a
 * 50 m pool): the free swimming after the start or turn, where speed is comparable.
 */
export function segmentMetricKeys(distanceMetres: number, poolLengthMetres: number) {
  const every = distanceMetres <= 100 ? 25 : 50
  const splits = Array.from({ length: Math.max(0, Math.ceil(distanceMetres / every) - 1) }, (_, index) => `split_${(index + 1) * every}`)
  const velocities: string[] = []
  for (let start = 0; start < distanceMetres; start += poolLengthMetres) {
    for (let from = start + 15; from + 10 <= Math.min(start + poolLengthMetres, distanceMetres) && from + 10 <= start + 45; from += 10) velocities.push(`velocity_${from}_${from + 10}`)
  }
  return [...splits, ...velocities]
}

/** The form field of a metric's value. */
export const valueFieldName = (key: string) => `value_${key}`

/** The metrics form of an event: one optional figure per metric key it shows. */
export function metricsSchema(keys: string[]) {
  return z.object({ eventId: id, ...Object.fromEntries(keys.map((key) => [valueFieldName(key), optionalValue])) })
}

export const CustomMetricSchema = z.object({
  eventId: id,
  label: requiredText('Name the metric', LIMITS.label).refine((label) => /[a-z0-9]/i.test(label), 'Use letters or digits in the name'),
  unit: requiredText('Enter its unit, for example s, m or °', LIMITS.unit),
  better: betterField,
  value: requiredValue('Enter the value'),
})

export const FindingSchema = z.object({
  findingId: id.optional(),
  title: requiredText('Enter what you found', LIMITS.title),
  whyItMatters: optionalText(LIMITS.text),
  priority: z.enum(FINDING_PRIORITIES.map((priority) => priority.value) as [string, ...string[]], { error: 'Choose a priority' }),
})

export const RemoveFindingSchema = z.object({ findingId: id })

const URL_MESSAGE = 'Enter a full address starting with https://'

export function isWebAddress(value: string) {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.')
  } catch {
    return false
  }
}

export const DrillSchema = z.object({
  findingId: id,
  drillId: id.optional(),
  name: requiredText('Name the drill', LIMITS.title),
  instructions: optionalText(LIMITS.text),
  videoUrl: z
    .string()
    .trim()
    .max(LIMITS.url, `Please use at most ${LIMITS.url} characters`)
    .optional()
    .refine((value) => !value || isWebAddress(value), URL_MESSAGE)
    .transform((value) => value || null),
})

export const RemoveDrillSchema = z.object({ drillId: id })

export const PublishSchema = z.object({ tellFamily: z.literal('on', { error: 'Tick the box to tell the family, or leave it empty' }).optional() })

export const BAND_GENDERS = [
  { value: 'any', label: 'Any' },
  { value: 'female', label: 'Female' },
  { value: 'male', label: 'Male' },
] as const

const age = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .regex(/^\d{1,3}$/, message)
    .transform(Number)
    .refine((years) => years >= 4 && years <= 99, 'Ages run from 4 to 99')

export const BandSchema = z
  .object({
    bandId: id.optional(),
    stroke: strokeField,
    distance: distanceField,
    metric: z.enum(METRICS.map((metric) => metric.key) as [string, ...string[]], { error: 'Choose a metric' }),
    ageMin: age('Enter the youngest age, in whole years'),
    ageMax: age('Enter the oldest age, in whole years'),
    gender: z.enum(BAND_GENDERS.map((gender) => gender.value) as [string, ...string[]], { error: 'Choose who the band is for' }),
    level: requiredText('Name the level, for example “State finalist”', LIMITS.level),
    value: requiredValue('Enter the value'),
  })
  .refine((band) => band.ageMin <= band.ageMax, { message: 'The oldest age must be at least the youngest', path: ['ageMax'] })

export const RemoveBandSchema = z.object({ bandId: id })
