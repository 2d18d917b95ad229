// Writes a brotli (.br) and a gzip (.gz) copy of every script, stylesheet and SVG of the client
// build, at the strongest settings, so the server sends them without compressing on each request.
// Runs after every build (`npm run build`, and the build `npm start` and the tests make).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const COMPRESSIBLE = /\.(js|css|svg|json|txt|webmanifest)$/

export function precompress(dir) {
  let files = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      files += precompress(full)
      continue
    }
    if (!COMPRESSIBLE.test(entry.name)) continue
    const bytes = readFileSync(full)
    const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })
    const gzip = gzipSync(bytes, { level: 9 })
    // Even a script of a few hundred bytes comes out a third smaller; a copy that gains nothing is not written.
    if (brotli.length < bytes.length) writeFileSync(`${full}.br`, brotli)
    if (gzip.length < bytes.length) writeFileSync(`${full}.gz`, gzip)
    files += 1
  }
  return files
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
  const count = precompress(path.join(root, 'build/client'))
  console.log(`Precompressed ${count} files (brotli and gzip).`)
}
