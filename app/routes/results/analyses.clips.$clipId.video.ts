import type { Route } from './+types/analyses.clips.$clipId.video'
import { rowId } from '~/lib/row-id'
import { maySeeAnalysis } from '~/modules/analyses/access.server'
import { clipFiles } from '~/modules/analyses/files/clips.server'
import { analysisFileStore } from '~/modules/analyses/files/store.server'
import { notFoundFile, RESULTS_HEADERS, viewerOf } from '~/web/analyses/analysis-pages.server'
import { storedFileResponse } from '~/web/stored-file-response.server'

/**
 * A clip's video, for those who may see its analysis (staff; the family's account once it is
 * published; a coach's share link, `?share=`); anyone else gets 404, as for a clip that does not
 * exist. A resource route like the report files, so who may see it is decided where the pages
 * decide it; the bytes stream through the site (also from S3) with their ranges, never whole in
 * memory, and are never cached: the page cache takes only its listed public pages. Its address may
 * hold a coach's token, so neither the file nor a refusal is sent on with a referrer.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const clipId = rowId(params.clipId)
  const clip = clipId ? await clipFiles(clipId) : null
  if (!(clip && (await maySeeAnalysis(await viewerOf(request), clip.analysisId)))) return notFoundFile()
  return storedFileResponse(request, analysisFileStore(), clip.storageKey, clip.contentType, RESULTS_HEADERS)
}
