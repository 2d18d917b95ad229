import { existsSync } from 'node:fs'
import path from 'node:path'
import express, { type NextFunction, type Request, type Response } from 'express'
import { chooseEncoding } from './encoding'

const EXTENSIONS = { br: '.br', gzip: '.gz' } as const

/**
 * Static files, sent as their brotli or gzip copy made at build time (scripts/precompress.mjs)
 * when the browser takes it, else as they are. Which copies exist is read once per file.
 */
export function precompressedStatic(root: string, options: { immutable?: boolean; maxAge?: string } = {}) {
  const serve = express.static(root, { ...options, index: false })
  const copies = new Map<string, { br: boolean; gzip: boolean }>()
  const copiesOf = (file: string) => {
    let found = copies.get(file)
    if (!found) {
      found = { br: existsSync(`${file}${EXTENSIONS.br}`), gzip: existsSync(`${file}${EXTENSIONS.gzip}`) }
      copies.set(file, found)
    }
    return found
  }

  return (request: Request, response: Response, next: NextFunction) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next()
    let file: string
    try {
      file = path.join(root, path.normalize(decodeURIComponent(request.path)))
    } catch {
      return serve(request, response, next)
    }
    if (!file.startsWith(root + path.sep) || /\.(br|gz)$/.test(file)) return serve(request, response, next)
    const available = copiesOf(file)
    const wanted = chooseEncoding(request.headers['accept-encoding'])
    response.vary('Accept-Encoding')
    // Both copies are made together; a file without them (too small to gain) goes as it is.
    if (wanted === 'identity' || !available[wanted]) return serve(request, response, next)
    response.setHeader('Content-Encoding', wanted)
    response.type(path.extname(file))
    request.url = `${request.url.split('?')[0]}${EXTENSIONS[wanted]}`
    return serve(request, response, next)
  }
}
