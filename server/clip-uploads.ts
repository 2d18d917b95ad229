import type { IncomingMessage, ServerResponse } from 'node:http'
import { EVENTS, type Upload } from '@tus/utils'
import { Server as TusServer } from '@tus/server'
import type pino from 'pino'
import { DomainError } from '~/lib/domain-error'
import { beginClipUpload, CLIP_MAX_BYTES, clipUploadOf, endClipUpload, recordUploadedClip } from '~/modules/analyses/files/clips.server'
import type { AnalysisFileStore } from '~/modules/analyses/files/store.server'
import { getUser } from '~/web/auth.server'

/** Where staff's browsers send clips, with the tus protocol (resumable uploads). */
export const CLIP_UPLOADS_PATH = '/uploads/clips'

const STATUS_OF: Record<DomainError['kind'], number> = { invalid: 400, not_found: 404, conflict: 409, rate_limited: 429, unavailable: 502 }

/** A tus hook's refusal: the status and the message the staff member reads on the page. */
function refusal(error: unknown) {
  if (error instanceof DomainError) return { status_code: STATUS_OF[error.kind], body: error.message }
  throw error
}

/**
 * Resumable clip uploads (the tus protocol, through @tus/server), answered in Express before React
 * Router: the body of a 2 GB clip streams straight into the store, a chunk at a time, and a
 * dropped connection resumes from the bytes the store already has. Only signed-in staff may
 * create, resume, read the offset of, or cancel an upload: the session is looked up on every
 * request, as the pages do. Cross-site posts are refused before this by the origin check.
 *
 * Locks on an upload are held in this process's memory: a client resuming talks to whichever
 * instance answers, which is safe as long as one client does not send two PATCHes for the same
 * upload at once (tus-js-client never does).
 */
export function clipUploads({ store, siteUrl, logger }: { store: AnalysisFileStore; siteUrl: () => string; logger: pino.Logger }) {
  const tus = new TusServer({
    path: CLIP_UPLOADS_PATH,
    datastore: store.uploads,
    maxSize: CLIP_MAX_BYTES,
    // The address of an upload is this site's, whatever proxy the request came through.
    relativeLocation: true,
    // Same-origin pages only: no cross-origin browser may read an answer.
    allowedOrigins: () => false,
    async onUploadCreate(_request, upload) {
      try {
        if (upload.size === undefined) throw new DomainError('invalid', 'The upload must say how large the file is.')
        if (upload.size === 0) throw new DomainError('invalid', 'The file is empty.')
        await beginClipUpload(upload.id, clipUploadOf(upload.metadata))
        return {}
      } catch (error) {
        throw refusal(error)
      }
    },
    async onUploadFinish(_request, upload: Upload) {
      try {
        const clip = await recordUploadedClip({ uploadId: upload.id, size: upload.size ?? upload.offset, upload: clipUploadOf(upload.metadata) })
        logger.info({ clipId: clip.clipId, size: upload.size }, 'clip uploaded')
        return { headers: { 'Clip-Id': String(clip.clipId) } }
      } catch (error) {
        throw refusal(error)
      }
    },
    onResponseError(_request, error) {
      if (!('status_code' in error)) logger.error({ err: error }, 'clip upload failed')
      return undefined
    },
  })
  tus.on(EVENTS.POST_TERMINATE, (_request, _response, id: string) => endClipUpload(id))

  return async (request: IncomingMessage, response: ServerResponse) => {
    const user = await getUser(new Request(new URL(request.url ?? '/', siteUrl()), { headers: { Cookie: request.headers.cookie ?? '' } }))
    if (!user || !user.isAdmin) {
      response.writeHead(user ? 403 : 401, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' })
      response.end(user ? 'Only staff may upload clips.' : 'Sign in as staff to upload clips.')
      return
    }
    response.setHeader('Cache-Control', 'private, no-store')
    await tus.handle(request, response)
  }
}
