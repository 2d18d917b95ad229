import { asc, eq, inArray } from 'drizzle-orm'
import { db } from '~/db/client.server'
import { analysisEvents, analysisFindings, analysisMetrics, findingDrills } from '~/db/schema'

// What an analysis holds, read the one way the staff editor and the family's pages both need it:
// in the order staff put things.

/** The events of these analyses, each with its metric rows. */
export async function eventsWithMetricsOf(analysisIds: number[]) {
  if (analysisIds.length === 0) return []
  const events = await db().select().from(analysisEvents).where(inArray(analysisEvents.analysisId, analysisIds)).orderBy(asc(analysisEvents.position), asc(analysisEvents.id))
  const metrics = events.length
    ? await db()
        .select()
        .from(analysisMetrics)
        .where(
          inArray(
            analysisMetrics.eventId,
            events.map((event) => event.id),
          ),
        )
        .orderBy(asc(analysisMetrics.position), asc(analysisMetrics.id))
    : []
  return events.map((event) => ({ ...event, metrics: metrics.filter((metric) => metric.eventId === event.id) }))
}

/** The findings of an analysis, each with its drills. */
export async function findingsWithDrillsOf(analysisId: number) {
  const findings = await db().select().from(analysisFindings).where(eq(analysisFindings.analysisId, analysisId)).orderBy(asc(analysisFindings.position), asc(analysisFindings.id))
  const drills = findings.length
    ? await db()
        .select()
        .from(findingDrills)
        .where(
          inArray(
            findingDrills.findingId,
            findings.map((finding) => finding.id),
          ),
        )
        .orderBy(asc(findingDrills.position), asc(findingDrills.id))
    : []
  return findings.map((finding) => ({ ...finding, drills: drills.filter((drill) => drill.findingId === finding.id) }))
}
