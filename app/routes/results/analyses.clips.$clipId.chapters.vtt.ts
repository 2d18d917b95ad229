import type { Route } from './+types/analyses.clips.$clipId.chapters.vtt'
import { rowId } from '~/lib/row-id'
import { maySeeAnalysis } from '~/modules/analyses/access.server'
import { chaptersVtt } from '~/modules/analyses/chapters-vtt'
import { clipChapters } from '~/modules/analyses/views.server'
import { notFoundFile, resultsViewer, RESULTS_HEADERS } from '~/web/analyses/analysis-pages.server'

/**
 * A clip's chapters as WebVTT, for the player's chapter track: for whoever may see the clip's
 * analysis (its family, staff, or a coach's link given as `share`); anyone else gets 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { viewer } = await resultsViewer(request)
  const clipId = rowId(params.clipId)
  const clip = clipId ? await clipChapters(clipId) : null
  if (!(clip && viewer && (await maySeeAnalysis(viewer, clip.analysisId)))) return notFoundFile()
  return new Response(chaptersVtt(clip.chapters, clip.durationSeconds), { headers: { 'Content-Type': 'text/vtt; charset=utf-8', ...RESULTS_HEADERS } })
}
