import { asc, eq, inArray } from 'drizzle-orm'
import { db, type Executor } from '~/db/client.server'
import { analyses, analysisEvents, analysisMetrics, type BetterWhen } from '~/db/schema'
import { parseCsv } from '~/lib/csv'
import { DomainError } from '~/lib/domain-error'
import { recordAudit, type Actor } from '~/modules/audit/audit.server'
import { customMetricKey, DISTANCES_METRES, eventLabel, formatMetricValue, METRICS, metricDefinition, STROKES } from './catalog'
import { lockedAnalysis, writeMetrics, type MetricValue } from './editing.server'
import { LIMITS, parseMetricValue } from './schemas'

// The lab's analysis software exports its figures as CSV, one figure a row:
//
//   stroke,distance_m,metric,value,unit,better
//   freestyle,50,final_time,28.41,,
//   Freestyle,50,Stroke rate,52.3,,
//   freestyle,50,Dolphin kick frequency,2.1,Hz,higher
//
// Staff upload the file, see what it will add and which values it will overwrite, and confirm;
// the file comes back with the confirmation and is checked again, so nothing the preview did not
// show is saved, and a file with a row to fix saves nothing.

export const MAX_CSV_BYTES = 1024 * 1024
export const MAX_CSV_ROWS = 2000

const COLUMNS = ['stroke', 'distance_m', 'metric', 'value', 'unit', 'better'] as const
const REQUIRED = ['stroke', 'distance_m', 'metric', 'value'] as const
type Column = (typeof COLUMNS)[number]

export type ImportProblem = { row: number | null; column: Column | null; message: string }

export type ImportChange = {
  row: number
  stroke: string
  distanceMetres: number
  event: string
  key: string
  label: string
  unit: string
  betterWhen: BetterWhen
  value: number
  /** The value it overwrites, or null for a new one. */
  previous: number | null
}

export type ImportPlan = {
  problems: ImportProblem[]
  /** The figures the file sets, in its order: new ones and those that overwrite a different value. */
  changes: ImportChange[]
  /** Rows whose value is already the stored one. */
  unchanged: number
  /** Rows without a value (the software leaves a figure it did not measure empty). */
  empty: number
  /** Events of the file the analysis does not have yet, added by the import. */
  newEvents: string[]
}

/** "Row 4, column value: “fast” is not a number": where the problem is, as a spreadsheet numbers it (the header is row 1). */
export function problemText(problem: ImportProblem) {
  const where = [problem.row === null ? null : `Row ${problem.row}`, problem.column === null ? null : `column ${problem.column}`].filter(Boolean).join(', ')
  return where ? `${where}: ${problem.message}` : problem.message
}

const quoted = (text: string) => `“${text.length > 40 ? `${text.slice(0, 40)}…` : text}”`
const normal = (text: string) => text.trim().toLowerCase().replace(/[\s_-]+/g, ' ')

function strokeOf(text: string) {
  const wanted = normal(text)
  return STROKES.find((stroke) => normal(stroke.value) === wanted || normal(stroke.label) === wanted)?.value ?? null
}

function distanceOf(text: string) {
  const match = /^(\d{1,4})\s*m?$/i.exec(text.trim())
  const distance = match ? Number(match[1]) : NaN
  return (DISTANCES_METRES as readonly number[]).includes(distance) ? distance : null
}

type Stored = { events: Array<{ id: number; stroke: string; distanceMetres: number }>; metrics: Array<{ eventId: number; key: string; label: string; unit: string; betterWhen: BetterWhen; value: number }> }

async function storedOf(executor: Executor, analysisId: number): Promise<Stored> {
  const events = await executor.select({ id: analysisEvents.id, stroke: analysisEvents.stroke, distanceMetres: analysisEvents.distanceMetres }).from(analysisEvents).where(eq(analysisEvents.analysisId, analysisId)).orderBy(asc(analysisEvents.id))
  const metrics = events.length
    ? await executor
        .select({ eventId: analysisMetrics.eventId, key: analysisMetrics.metricKey, label: analysisMetrics.label, unit: analysisMetrics.unit, betterWhen: analysisMetrics.betterWhen, value: analysisMetrics.value })
        .from(analysisMetrics)
        .where(
          inArray(
            analysisMetrics.eventId,
            events.map((event) => event.id),
          ),
        )
    : []
  return { events, metrics }
}

/**
 * What importing `text` into the analysis would do, against what it holds now: every problem named
 * by row and column, and the changes it would make. Nothing is written.
 */
export function planImport(text: string, stored: Stored): ImportPlan {
  const plan: ImportPlan = { problems: [], changes: [], unchanged: 0, empty: 0, newEvents: [] }
  const problem = (row: number | null, column: Column | null, message: string) => plan.problems.push({ row, column, message })
  if (new TextEncoder().encode(text).length > MAX_CSV_BYTES) {
    problem(null, null, `The file is larger than ${MAX_CSV_BYTES / 1024 / 1024} MB.`)
    return plan
  }
  const rows = parseCsv(text)
  if (!rows) {
    problem(null, null, 'A quoted cell is never closed: the file is not a CSV file the import can read.')
    return plan
  }
  const header = rows[0]?.map((cell) => cell.trim().toLowerCase()) ?? []
  if (header.every((cell) => cell === '')) {
    problem(null, null, `The file is empty: its first row names the columns (${COLUMNS.join(',')}).`)
    return plan
  }
  const columns = new Map<Column, number>()
  header.forEach((name, index) => {
    if (!(COLUMNS as readonly string[]).includes(name)) problem(1, null, `${quoted(rows[0]![index]!)} is not a column the import knows (${COLUMNS.join(', ')}).`)
    else if (columns.has(name as Column)) problem(1, name as Column, 'The column is there twice.')
    else columns.set(name as Column, index)
  })
  for (const name of REQUIRED) if (!columns.has(name)) problem(1, null, `The column ${name} is missing.`)
  if (plan.problems.length) return plan
  const dataRows = rows.slice(1)
  if (dataRows.filter((row) => row.some((cell) => cell.trim())).length > MAX_CSV_ROWS) {
    problem(null, null, `The file has more than ${MAX_CSV_ROWS} rows; import it in parts.`)
    return plan
  }

  const eventKey = (stroke: string, distance: number) => `${stroke} ${distance}`
  const storedEvents = new Map(stored.events.map((event) => [eventKey(event.stroke, event.distanceMetres), event]))
  const storedMetric = (stroke: string, distance: number, key: string) => {
    const event = storedEvents.get(eventKey(stroke, distance))
    return event ? stored.metrics.find((metric) => metric.eventId === event.id && metric.key === key) : undefined
  }
  const seen = new Map<string, number>()
  const keysPerEvent = new Map<string, Set<string>>(stored.events.map((event) => [eventKey(event.stroke, event.distanceMetres), new Set(stored.metrics.filter((metric) => metric.eventId === event.id).map((metric) => metric.key))]))

  dataRows.forEach((cells, index) => {
    const row = index + 2
    if (cells.every((cell) => cell.trim() === '')) return
    if (cells.length > header.length) return problem(row, null, `It has ${cells.length} cells; the header names ${header.length} columns.`)
    const cell = (column: Column) => {
      const position = columns.get(column)
      return position === undefined ? '' : (cells[position] ?? '').trim()
    }
    const before = plan.problems.length
    const strokeText = cell('stroke')
    const stroke = strokeOf(strokeText)
    if (!stroke) problem(row, 'stroke', strokeText ? `${quoted(strokeText)} is not a stroke (${STROKES.map((item) => item.value).join(', ')}).` : 'The stroke is missing.')
    const distanceText = cell('distance_m')
    const distance = distanceOf(distanceText)
    if (distance === null) problem(row, 'distance_m', distanceText ? `${quoted(distanceText)} is not a distance in metres of the list (${DISTANCES_METRES.join(', ')}).` : 'The distance is missing.')
    const metricText = cell('metric')
    const unitText = cell('unit')
    const betterText = cell('better').toLowerCase()
    if (betterText && betterText !== 'higher' && betterText !== 'lower') problem(row, 'better', `${quoted(cell('better'))} is neither higher nor lower.`)
    if (unitText.length > LIMITS.unit) problem(row, 'unit', `The unit has more than ${LIMITS.unit} characters.`)
    let definition: Omit<MetricValue, 'value'> | null = null
    if (!metricText) problem(row, 'metric', 'The metric is missing.')
    else {
      const listed = metricDefinition(metricText.toLowerCase()) ?? METRICS.find((metric) => normal(metric.label) === normal(metricText)) ?? null
      if (listed) {
        definition = { key: listed.key, label: listed.label, unit: listed.unit, betterWhen: listed.betterWhen }
        if (unitText && unitText !== listed.unit) problem(row, 'unit', `${listed.label} is measured in ${listed.unit}, not ${quoted(unitText)}.`)
      } else {
        const key = customMetricKey(metricText)
        const existing = key && stroke && distance !== null ? storedMetric(stroke, distance, key) : undefined
        if (!key) problem(row, 'metric', `${quoted(metricText)} is not a metric of the list, and a metric of your own needs letters or digits in its name.`)
        else if (metricText.length > LIMITS.label) problem(row, 'metric', `${quoted(metricText)} is not a metric of the list, and a name of your own has at most ${LIMITS.label} characters.`)
        else if (existing) definition = { key, label: existing.label, unit: existing.unit, betterWhen: existing.betterWhen }
        else if (!unitText || !betterText) problem(row, unitText ? 'better' : 'unit', `${quoted(metricText)} is not a metric of the list: a metric of your own needs its unit and whether higher or lower is better.`)
        else definition = { key, label: metricText, unit: unitText, betterWhen: betterText as BetterWhen }
      }
    }
    const valueText = cell('value')
    const value = valueText ? parseMetricValue(valueText) : null
    if (valueText && value === null) problem(row, 'value', `${quoted(valueText)} is not a number.`)
    if (plan.problems.length > before || !stroke || distance === null || !definition) return
    const identity = `${eventKey(stroke, distance)} ${definition.key}`
    const earlier = seen.get(identity)
    if (earlier !== undefined) return problem(row, 'metric', `${definition.label} of the ${eventLabel({ stroke, distanceMetres: distance })} is on row ${earlier} already.`)
    seen.set(identity, row)
    if (!valueText) {
      plan.empty += 1
      return
    }
    const label = eventLabel({ stroke, distanceMetres: distance })
    const keys = keysPerEvent.get(eventKey(stroke, distance)) ?? new Set<string>()
    if (!keysPerEvent.has(eventKey(stroke, distance))) {
      keysPerEvent.set(eventKey(stroke, distance), keys)
      plan.newEvents.push(label)
      if (keysPerEvent.size > LIMITS.events) return problem(row, 'stroke', `The ${label} would be more than the ${LIMITS.events} events an analysis holds.`)
    }
    keys.add(definition.key)
    if (keys.size > LIMITS.metricsPerEvent) return problem(row, 'metric', `The ${label} would have more than ${LIMITS.metricsPerEvent} metrics.`)
    if ([...keys].filter((key) => metricDefinition(key) === null).length > LIMITS.customMetricsPerEvent) return problem(row, 'metric', `The ${label} would have more than ${LIMITS.customMetricsPerEvent} metrics of your own.`)
    const previous = storedMetric(stroke, distance, definition.key)?.value ?? null
    if (previous === value) {
      plan.unchanged += 1
      return
    }
    plan.changes.push({ row, stroke, distanceMetres: distance, event: label, ...definition, value: value!, previous })
  })
  return plan
}

const NOT_CSV_TEXT = 'The file is not a text (UTF-8) CSV file. Export it again as CSV.'

/** The text and name of an uploaded CSV file, or what is wrong with it: none chosen, too large, or not text. */
export async function readCsvFile(file: unknown): Promise<{ csv: string; fileName: string } | { problem: string }> {
  if (!(file instanceof File) || file.size === 0) return { problem: 'Choose the CSV file to import.' }
  if (file.size > MAX_CSV_BYTES) return { problem: `The file is larger than ${MAX_CSV_BYTES / 1024 / 1024} MB.` }
  let csv: string
  try {
    csv = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer())
  } catch {
    return { problem: NOT_CSV_TEXT }
  }
  if (csv.includes('\u0000')) return { problem: NOT_CSV_TEXT }
  return { csv, fileName: file.name }
}

/** What staff see before confirming an import, with the file to send back with the confirmation. */
export type ImportPreview = {
  problems: string[]
  changes: Array<{ row: number; event: string; metric: string; previous: string | null; value: string }>
  newEvents: string[]
  unchanged: number
  empty: number
  csv: string
  fileName: string
}

/** The plan as staff read it: the first hundred problems, and each change with its unit. */
export function importPreview(plan: ImportPlan, csv: string, fileName: string): ImportPreview {
  const withUnit = (value: number, unit: string) => `${formatMetricValue(value)} ${unit}`.trim()
  return {
    problems: plan.problems.slice(0, 100).map(problemText).concat(plan.problems.length > 100 ? [`…and ${plan.problems.length - 100} more.`] : []),
    changes: plan.changes.map((change) => ({ row: change.row, event: change.event, metric: change.label, previous: change.previous === null ? null : withUnit(change.previous, change.unit), value: withUnit(change.value, change.unit) })),
    newEvents: plan.newEvents,
    unchanged: plan.unchanged,
    empty: plan.empty,
    csv,
    fileName,
  }
}

/** The preview of an import: what it would add and overwrite, and every problem of the file. */
export async function previewImport(analysisId: number, text: string) {
  return planImport(text, await storedOf(db(), analysisId))
}

/**
 * Imports the file staff confirmed: planned again against the analysis as it is now, and saved
 * only when no row has a problem. Returns the plan that was applied.
 */
export async function importMetrics(actor: Actor, analysisId: number, text: string, now = new Date()) {
  return db().transaction(async (tx) => {
    const analysis = await lockedAnalysis(tx, analysisId)
    const stored = await storedOf(tx, analysisId)
    const plan = planImport(text, stored)
    if (plan.problems.length) throw new DomainError('invalid', `The file has ${plan.problems.length === 1 ? 'a row' : 'rows'} to fix; nothing was imported.`)
    if (plan.changes.length === 0) return plan
    const eventIds = new Map(stored.events.map((event) => [`${event.stroke} ${event.distanceMetres}`, event.id]))
    let position = stored.events.length
    const byEvent = new Map<string, ImportChange[]>()
    for (const change of plan.changes) byEvent.set(`${change.stroke} ${change.distanceMetres}`, [...(byEvent.get(`${change.stroke} ${change.distanceMetres}`) ?? []), change])
    for (const [key, changes] of byEvent) {
      let eventId = eventIds.get(key)
      if (eventId === undefined) {
        const [event] = await tx
          .insert(analysisEvents)
          .values({ analysisId, stroke: changes[0]!.stroke, distanceMetres: changes[0]!.distanceMetres, position: position++ })
          .returning({ id: analysisEvents.id })
        eventId = event!.id
      }
      await writeMetrics(tx, eventId, new Map(changes.map((change) => [change.key, change.value])), new Map(changes.map((change) => [change.key, change])))
    }
    await recordAudit(
      tx,
      actor,
      {
        action: 'analysis.import',
        entityType: 'analysis',
        entityId: analysisId,
        summary: `Imported ${plan.changes.length} metric values from a CSV file (${plan.changes.filter((change) => change.previous !== null).length} overwritten${plan.newEvents.length ? `; added the ${plan.newEvents.join(', ')}` : ''})`,
        about: { bookingId: analysis.bookingId, swimmerId: analysis.swimmerId },
      },
      now,
    )
    await tx.update(analyses).set({ updatedAt: now }).where(eq(analyses.id, analysisId))
    return plan
  })
}
