import type { Route } from './+types/analyses.clips.$clipId.poster'
import { rowId } from '~/lib/row-id'
import { maySeeAnalysis } from '~/modules/analyses/access.server'
import { clipFiles } from '~/modules/analyses/files/clips.server'
import { analysisFileStore } from '~/modules/analyses/files/store.server'
import { acceptsAvif } from '~/web/accepts-avif'
import { notFoundFile, RESULTS_HEADERS, viewerOf } from '~/web/analyses/analysis-pages.server'
import { storedFileResponse } from '~/web/stored-file-response.server'

/**
 * A clip's poster image, for the same viewers as its video (see analyses.clips.$clipId.video.ts):
 * as AVIF to a browser that takes it (the video's `poster` cannot offer formats as a `<picture>`
 * does, so the address answers by the request's Accept header), else as WebP, which every browser
 * that plays the clips shows, and for a poster set before the site kept an AVIF of it.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const clipId = rowId(params.clipId)
  const clip = clipId ? await clipFiles(clipId) : null
  if (!(clip?.posterKey && clip.posterContentType && (await maySeeAnalysis(await viewerOf(request), clip.analysisId)))) return notFoundFile()
  const headers = { ...RESULTS_HEADERS, Vary: 'Accept' }
  if (clip.posterAvifKey && acceptsAvif(request.headers.get('Accept'))) return storedFileResponse(request, analysisFileStore(), clip.posterAvifKey, 'image/avif', headers)
  return storedFileResponse(request, analysisFileStore(), clip.posterKey, clip.posterContentType, headers)
}
