import type { BetterWhen } from '~/db/schema'

/**
 * What an analysis is made of: the strokes and distances analysed, the camera angles, the chapter
 * marks of a clip, and the figures the lab measures with their units and which way is better.
 * Shared by the staff forms, the CSV import, the pages and the charts.
 */

export const STROKES = [
  { value: 'freestyle', label: 'Freestyle' },
  { value: 'backstroke', label: 'Backstroke' },
  { value: 'breaststroke', label: 'Breaststroke' },
  { value: 'butterfly', label: 'Butterfly' },
  { value: 'individual_medley', label: 'Individual medley' },
] as const

export type Stroke = (typeof STROKES)[number]['value']

export const DISTANCES_METRES = [25, 50, 100, 200, 400, 800, 1500] as const

export const POOL_LENGTHS_METRES = [25, 50] as const

export const CAMERA_ANGLES = [
  { value: 'underwater_side', label: 'Underwater, side' },
  { value: 'underwater_front', label: 'Underwater, front' },
  { value: 'underwater_below', label: 'Underwater, from below' },
  { value: 'above_water', label: 'Above water' },
  { value: 'overhead', label: 'Overhead' },
] as const

export const CHAPTER_KINDS = [
  { value: 'start', label: 'Start' },
  { value: 'underwater', label: 'Underwater' },
  { value: 'breakout', label: 'Breakout' },
  { value: 'free_swimming', label: 'Free swimming' },
  { value: 'turn', label: 'Turn' },
  { value: 'finish', label: 'Finish' },
] as const

export const FINDING_PRIORITIES = [
  { value: 'high', label: 'High' },
  { value: 'medium', label: 'Medium' },
  { value: 'low', label: 'Low' },
] as const

export type MetricDefinition = { key: string; label: string; unit: string; betterWhen: BetterWhen; biomechanical?: boolean }

/**
 * The figures the lab measures. Splits and velocities are per segment of the event
 * (`split_50` is the time at 50 m; `velocity_15_25` the speed from 15 to 25 m); staff may add a
 * figure that is not here, keyed `custom_<name>`.
 */
export const METRICS: MetricDefinition[] = [
  { key: 'reaction_time', label: 'Reaction time', unit: 's', betterWhen: 'lower' },
  { key: 'time_15m', label: '15 m time', unit: 's', betterWhen: 'lower' },
  { key: 'final_time', label: 'Final time', unit: 's', betterWhen: 'lower' },
  { key: 'stroke_rate', label: 'Stroke rate', unit: 'strokes/min', betterWhen: 'higher' },
  { key: 'stroke_length', label: 'Stroke length', unit: 'm', betterWhen: 'higher' },
  { key: 'distance_per_stroke', label: 'Distance per stroke', unit: 'm', betterWhen: 'higher' },
  { key: 'stroke_count', label: 'Stroke count per length', unit: 'strokes', betterWhen: 'lower' },
  { key: 'average_velocity', label: 'Average velocity', unit: 'm/s', betterWhen: 'higher' },
  { key: 'turn_time', label: 'Turn time (5 m in to 5 m out)', unit: 's', betterWhen: 'lower' },
  { key: 'breakout_distance', label: 'Breakout distance', unit: 'm', betterWhen: 'higher' },
  { key: 'underwater_kicks', label: 'Underwater kicks', unit: 'kicks', betterWhen: 'higher' },
  { key: 'elbow_angle_catch', label: 'Elbow angle at catch', unit: '°', betterWhen: 'higher', biomechanical: true },
  { key: 'knee_angle_kick', label: 'Knee angle in the kick', unit: '°', betterWhen: 'lower', biomechanical: true },
  { key: 'body_roll', label: 'Body roll', unit: '°', betterWhen: 'higher', biomechanical: true },
  { key: 'hip_depth', label: 'Hip depth', unit: 'cm', betterWhen: 'lower', biomechanical: true },
]

const SPLIT = /^split_(\d{2,4})$/
const VELOCITY = /^velocity_(\d{1,4})_(\d{1,4})$/
const CUSTOM = /^custom_[a-z0-9_]{1,40}$/

/** A metric's value as staff type and read it: at most three decimals. */
export const formatMetricValue = (value: number) => String(Math.round(value * 1000) / 1000)

/** The definition of a metric key: one of the list, a split or segment velocity, or null for a custom or unknown key. */
export function metricDefinition(key: string): MetricDefinition | null {
  const listed = METRICS.find((metric) => metric.key === key)
  if (listed) return listed
  const split = SPLIT.exec(key)
  if (split) return { key, label: `Split at ${Number(split[1])} m`, unit: 's', betterWhen: 'lower' }
  const velocity = VELOCITY.exec(key)
  if (velocity && Number(velocity[1]) < Number(velocity[2])) return { key, label: `Velocity ${Number(velocity[1])}-${Number(velocity[2])} m`, unit: 'm/s', betterWhen: 'higher' }
  return null
}

/** Whether a key may be stored: a known metric, or a custom one. */
export function isMetricKey(key: string) {
  return metricDefinition(key) !== null || CUSTOM.test(key)
}

/** The key of a metric staff add by name: "Dolphin kick frequency" → custom_dolphin_kick_frequency. */
export function customMetricKey(label: string) {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40)
  return slug ? `custom_${slug}` : null
}

const labelOf = <T extends { value: string; label: string }>(list: readonly T[], value: string) => list.find((item) => item.value === value)?.label ?? value

export const strokeLabel = (stroke: string) => labelOf(STROKES, stroke)
export const angleLabel = (angle: string) => labelOf(CAMERA_ANGLES, angle)
export const chapterLabel = (kind: string) => labelOf(CHAPTER_KINDS, kind)
export const priorityLabel = (priority: string) => labelOf(FINDING_PRIORITIES, priority)

/** "50 m freestyle". */
export function eventLabel(event: { stroke: string; distanceMetres: number }) {
  return `${event.distanceMetres} m ${strokeLabel(event.stroke).toLowerCase()}`
}

/** Whether `value` is better than `previous` for a metric of this direction (equal is neither). */
export function isImprovement(betterWhen: BetterWhen, value: number, previous: number) {
  return betterWhen === 'higher' ? value > previous : value < previous
}
