import { readdirSync } from 'node:fs'
import path from 'node:path'
import express, { type NextFunction, type Request, type Response } from 'express'
import { chooseEncoding } from './encoding'

const EXTENSIONS = { br: '.br', gzip: '.gz' } as const

type Copies = { br: boolean; gzip: boolean }

/**
 * Static files, sent as their brotli or gzip copy made at build time (scripts/precompress.mjs)
 * when the browser takes it, else as they are. Which copies exist is read from the directory once,
 * at start (the build does not change under a running server): nothing is remembered per request,
 * so no address a client makes up can grow what the server keeps.
 */
export function precompressedStatic(root: string, options: { immutable?: boolean; maxAge?: string } = {}) {
  const serve = express.static(root, { ...options, index: false })
  const copies = precompressedCopies(root)

  const middleware = (request: Request, response: Response, next: NextFunction) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next()
    let file: string
    try {
      file = path.join(root, path.normalize(decodeURIComponent(request.path)))
    } catch {
      return serve(request, response, next)
    }
    if (!file.startsWith(root + path.sep) || /\.(br|gz)$/.test(file)) return serve(request, response, next)
    const available = copies.get(file)
    const wanted = chooseEncoding(request.headers['accept-encoding'])
    response.vary('Accept-Encoding')
    // Both copies are made together; a file without them (too small to gain) goes as it is.
    if (wanted === 'identity' || !available?.[wanted]) return serve(request, response, next)
    response.setHeader('Content-Encoding', wanted)
    response.type(path.extname(file))
    request.url = `${request.url.split('?')[0]}${EXTENSIONS[wanted]}`
    return serve(request, response, next)
  }
  return Object.assign(middleware, {
    /** How many files the middleware knows a compressed copy of: the build's, however many requests come. */
    knownFiles: () => copies.size,
  })
}

/** Every file under `root` that has a brotli or gzip copy beside it, by absolute path. */
function precompressedCopies(root: string) {
  const present = new Set(readdirSync(root, { recursive: true, encoding: 'utf8' }).map((name) => path.join(root, name)))
  const copies = new Map<string, Copies>()
  for (const file of present) {
    if (/\.(br|gz)$/.test(file)) continue
    const found = { br: present.has(`${file}${EXTENSIONS.br}`), gzip: present.has(`${file}${EXTENSIONS.gzip}`) }
    if (found.br || found.gzip) copies.set(file, found)
  }
  return copies
}
