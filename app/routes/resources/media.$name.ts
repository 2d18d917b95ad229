import type { Route } from './+types/media.$name'
import { mediaFileStore, PUBLIC_MEDIA_NAME } from '~/modules/media/store.server'
import { PUBLIC_IMMUTABLE_HEADERS, storedFileResponse } from '~/web/stored-file-response.server'

const CONTENT_TYPES: Record<string, string> = { avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg', mp4: 'video/mp4' }

/**
 * The media library's public files: the photos and video loops the pipeline made, by their
 * content-hashed names, cached by anyone for a year. Only such names are answered; an upload as
 * staff sent it (with its metadata) has a name of another shape and is never served.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const match = PUBLIC_MEDIA_NAME.exec(params.name)
  if (!match) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } })
  return storedFileResponse(request, mediaFileStore(), params.name, CONTENT_TYPES[match[1]!]!, PUBLIC_IMMUTABLE_HEADERS)
}
