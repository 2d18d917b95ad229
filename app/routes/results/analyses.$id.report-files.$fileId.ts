import type { Route } from './+types/analyses.$id.report-files.$fileId'
import { rowId } from '~/lib/row-id'
import { maySeeAnalysis } from '~/modules/analyses/access.server'
import { analysisReportFile } from '~/modules/analyses/views.server'
import { notFoundFile, resultsViewer, RESULTS_HEADERS } from '~/web/analyses/analysis-pages.server'

/**
 * A report file of the booking an analysis is of, for whoever may see the analysis: its family,
 * staff, or a coach's link given as `share` (who has no other way to the booking's files).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { viewer } = await resultsViewer(request)
  const analysisId = rowId(params.id)
  const fileId = rowId(params.fileId)
  if (!(viewer && analysisId && fileId && (await maySeeAnalysis(viewer, analysisId)))) return notFoundFile()
  const file = await analysisReportFile(analysisId, fileId)
  if (!file) return notFoundFile()
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      'Content-Type': file.contentType,
      'Content-Disposition': `inline; filename="${file.filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, "'")}"`,
      ...RESULTS_HEADERS,
    },
  })
}
