import { priorityLabel } from '~/modules/analyses/catalog'
import type { PublishedSample } from '~/modules/analyses/samples.server'
import { eventRowsOf, type AnalysisPageView } from './analysis-pages.server'

// The public sample drawn as a results page, with the components the family's own page uses. Its
// events, findings and drills are numbered by their place in the sample: nothing on the page
// carries an id of the family's analysis, and it has no clips, report or booking.

/** The sample's page data, every figure written out as on a family's page. */
export function samplePageOf(sample: PublishedSample): AnalysisPageView {
  return {
    id: 0,
    swimmerName: sample.swimmerDescription,
    sessions: '',
    place: '',
    summary: sample.summary,
    poolLength: `${sample.poolLengthMetres} m`,
    events: eventRowsOf(sample.events.map((event, index) => ({ ...event, id: index + 1 }))),
    clips: [],
    findings: sample.findings.map((finding, index) => ({
      id: index + 1,
      title: finding.title,
      whyItMatters: finding.whyItMatters,
      priority: finding.priority,
      priorityLabel: priorityLabel(finding.priority),
      drills: finding.drills.map((drill, place) => ({ id: place + 1, ...drill })),
    })),
    report: null,
    nextAnalysis: null,
  }
}
