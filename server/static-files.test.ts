import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { precompressedStatic } from './static-files'

const SCRIPT = `console.log(${JSON.stringify('a script worth compressing '.repeat(40))})`

let root: string
let server: Server
let base: string
let middleware: ReturnType<typeof precompressedStatic>

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'swimlab-static-'))
  mkdirSync(path.join(root, 'assets'))
  writeFileSync(path.join(root, 'assets/app.js'), SCRIPT)
  // The copy says which it is, so the test sees which one was sent (fetch decodes it).
  writeFileSync(path.join(root, 'assets/app.js.br'), brotliCompressSync(`${SCRIPT}// brotli copy`))
  writeFileSync(path.join(root, 'assets/app.js.gz'), gzipSync(SCRIPT))
  writeFileSync(path.join(root, 'tiny.txt'), 'hi')
  middleware = precompressedStatic(root, { maxAge: '1h' })
  const app = express()
  app.use(middleware)
  app.use((_request, response) => void response.status(404).send('not here'))
  server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  rmSync(root, { recursive: true, force: true })
})

describe('precompressed static files', () => {
  it('sends the brotli copy to a browser that takes it, and the file as it is otherwise', async () => {
    const compressed = await fetch(`${base}/assets/app.js`, { headers: { 'Accept-Encoding': 'br' } })
    expect(compressed.headers.get('Content-Encoding')).toBe('br')
    expect(compressed.headers.get('Content-Type')).toContain('javascript')
    expect(await compressed.text()).toBe(`${SCRIPT}// brotli copy`)
    const plain = await fetch(`${base}/tiny.txt`, { headers: { 'Accept-Encoding': 'br, gzip' } })
    expect(plain.headers.get('Content-Encoding')).toBeNull()
    expect(await plain.text()).toBe('hi')
  })

  it('remembers nothing per request: thousands of made-up long addresses leave it knowing the same files', async () => {
    const before = middleware.knownFiles()
    const padding = 'x'.repeat(1_000)
    for (let batch = 0; batch < 20; batch += 1) {
      await Promise.all(
        Array.from({ length: 100 }, async (_, index) => {
          const response = await fetch(`${base}/assets/${padding}-${batch}-${index}.js`, { headers: { 'Accept-Encoding': 'br' } })
          expect(response.status).toBe(404)
          await response.arrayBuffer()
        }),
      )
    }
    expect(middleware.knownFiles()).toBe(before)
    // The one file with copies in the directory, and nothing else.
    expect(before).toBe(1)
  })
})
