// The lab's numbers on the public site: counted from its own records (figures.server.ts), and shown
// only once each reaches the threshold staff set. Nothing server-only may be imported here.
import { formatCount } from '~/lib/money'

/** What the lab's records say: swimmers with a published analysis, published analyses, camps that have ended. */
export type FigureCounts = { swimmersAnalysed: number; analysesDelivered: number; campsRun: number }

export type FigureName = keyof FigureCounts

/** The threshold of each number, as the site settings keep them; 0 never shows the number. */
export type FigureThresholds = { swimmersAnalysedThreshold: number; analysesDeliveredThreshold: number; campsRunThreshold: number }

const THRESHOLD_OF: Record<FigureName, keyof FigureThresholds> = {
  swimmersAnalysed: 'swimmersAnalysedThreshold',
  analysesDelivered: 'analysesDeliveredThreshold',
  campsRun: 'campsRunThreshold',
}

/** The order the numbers are shown in. */
export const FIGURE_NAMES = Object.keys(THRESHOLD_OF) as FigureName[]

/** What each number counts, after the count: "1 swimmer analysed", "120 swimmers analysed". */
const FIGURE_LABELS: Record<FigureName, { one: string; many: string }> = {
  swimmersAnalysed: { one: 'swimmer analysed', many: 'swimmers analysed' },
  analysesDelivered: { one: 'analysis delivered', many: 'analyses delivered' },
  campsRun: { one: 'camp run', many: 'camps run' },
}

/** The count grouped as in India, and what it counts: ["1,20,000", "swimmers analysed"]. */
export function figureText(name: FigureName, count: number): [string, string] {
  return [formatCount(count), count === 1 ? FIGURE_LABELS[name].one : FIGURE_LABELS[name].many]
}

/** The numbers a page may show: each one that is at least its threshold, a threshold of 0 showing none. */
export function figuresToShow(counts: FigureCounts, thresholds: FigureThresholds): Partial<FigureCounts> {
  const shown: Partial<FigureCounts> = {}
  for (const name of FIGURE_NAMES) {
    const threshold = thresholds[THRESHOLD_OF[name]]
    if (threshold > 0 && counts[name] >= threshold) shown[name] = counts[name]
  }
  return shown
}
