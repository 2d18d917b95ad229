import type { Route } from './+types/analyses.clips.$clipId.poster'
import { rowId } from '~/lib/row-id'
import { maySeeAnalysis } from '~/modules/analyses/access.server'
import { clipFiles } from '~/modules/analyses/files/clips.server'
import { analysisFileStore } from '~/modules/analyses/files/store.server'
import { notFoundFile, RESULTS_HEADERS, viewerOf } from '~/web/analyses/analysis-pages.server'
import { storedFileResponse } from '~/web/stored-file-response.server'

/** A clip's poster image, for the same viewers as its video (see analyses.clips.$clipId.video.ts). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const clipId = rowId(params.clipId)
  const clip = clipId ? await clipFiles(clipId) : null
  if (!(clip?.posterKey && clip.posterContentType && (await maySeeAnalysis(await viewerOf(request), clip.analysisId)))) return notFoundFile()
  return storedFileResponse(request, analysisFileStore(), clip.posterKey, clip.posterContentType, RESULTS_HEADERS)
}
