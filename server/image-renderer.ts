import { fork, type ChildProcess } from 'node:child_process'
import type pino from 'pino'
import { durationMs } from '~/lib/lab-time'
import { renderImage, type RenderedImage } from '~/modules/media/images.server'
import type { MediaCollection } from '~/modules/media/limits'
import { RendererStoppedError } from '~/modules/media/media.server'

/** The command line's word that starts a process as the image renderer instead of the site. */
export const RENDERER_COMMAND = 'media:render'

/** A photo that takes longer than this is taken to have stopped the renderer (it takes seconds). */
const RENDER_TIMEOUT_MS = durationMs({ minutes: 5 })

type Request = { id: number; bytes: Uint8Array; collection: MediaCollection }
type Reply = { id: number; image?: RenderedImage; error?: string }

/**
 * The media pipeline's photos, made in a child process of the site's own that lives only while
 * uploads are waiting. Decoding a 12-megapixel photo and encoding eighteen files (AVIF above all,
 * with its own threads) leaves glibc's allocator holding hundreds of megabytes it will not give
 * back to the system; in a process that exits when the work is done, all of it goes back, and the
 * site that answers the pages keeps only the uploads it holds for a moment. The child is started
 * at the first photo it is given, not at a poll that finds none.
 */
export class ChildImageRenderer {
  private child: ChildProcess | undefined
  private readonly waiting = new Map<number, { resolve: (image: RenderedImage) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>()
  private nextId = 1

  constructor(
    private readonly logger: pino.Logger,
    /** The site's start script (server.js), started again with RENDERER_COMMAND. */
    private readonly script: string = process.argv[1]!,
  ) {}

  render = (bytes: Uint8Array, collection: MediaCollection): Promise<RenderedImage> => {
    const child = this.started()
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.logger.error({ collection }, 'the image renderer took too long and is stopped')
        child.kill('SIGKILL')
      }, RENDER_TIMEOUT_MS)
      this.waiting.set(id, { resolve, reject, timer })
      child.send({ id, bytes, collection } satisfies Request)
    })
  }

  /** Ends the child, and with it every byte of memory it took. */
  close() {
    this.child?.disconnect()
    this.child = undefined
  }

  private started() {
    if (this.child?.connected) return this.child
    const child = fork(this.script, [RENDERER_COMMAND], { serialization: 'advanced', execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    child.on('message', (reply: Reply) => {
      const request = this.waiting.get(reply.id)
      if (!request) return
      this.waiting.delete(reply.id)
      clearTimeout(request.timer)
      if (reply.image) request.resolve({ ...reply.image, files: reply.image.files.map((file) => ({ ...file, bytes: Buffer.from(file.bytes) })) })
      else request.reject(new Error(reply.error ?? 'The photo could not be made'))
    })
    // A child that stops (out of memory, killed for taking too long) fails what it was making as
    // stopped, not as a damaged photo: the upload is tried again.
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = undefined
      if (this.waiting.size) this.logger.error({ code, signal }, 'the image renderer stopped while making photos')
      for (const [id, request] of this.waiting) {
        clearTimeout(request.timer)
        request.reject(new RendererStoppedError())
        this.waiting.delete(id)
      }
    })
    this.child = child
    return child
  }
}

/** The child's side: makes each photo it is sent, and exits when the site lets it go. */
export function runImageRenderer() {
  process.on('message', (request: Request) => {
    renderImage(request.bytes, request.collection).then(
      (image) => process.send?.({ id: request.id, image } satisfies Reply),
      (error: unknown) => process.send?.({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies Reply),
    )
  })
  process.on('disconnect', () => process.exit(0))
}
