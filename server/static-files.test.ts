import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { staticFiles } from './static-files'

const SCRIPT = `console.log(${JSON.stringify('a script worth compressing '.repeat(40))})`

let root: string
let server: Server
let base: string
let files: ReturnType<typeof staticFiles>

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'swimlab-static-'))
  mkdirSync(path.join(root, 'assets'))
  writeFileSync(path.join(root, 'assets/app.js'), SCRIPT)
  // The copy says which it is, so the test sees which one was sent (fetch decodes it).
  writeFileSync(path.join(root, 'assets/app.js.br'), brotliCompressSync(`${SCRIPT}// brotli copy`))
  writeFileSync(path.join(root, 'assets/app.js.gz'), gzipSync(SCRIPT))
  writeFileSync(path.join(root, 'tiny.txt'), 'hi')
  // A file outside /assets keeps its name from build to build, so browsers revalidate it.
  writeFileSync(path.join(root, 'site.js'), SCRIPT)
  writeFileSync(path.join(root, 'site.js.br'), brotliCompressSync(SCRIPT))
  writeFileSync(path.join(root, 'assets/app.css'), 'body{margin:0}')
  writeFileSync(path.join(root, 'a file.svg'), '<svg/>')
  files = staticFiles(root, { headers: { 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'self'", 'X-Frame-Options': 'DENY' } })
  server = createServer((request, response) => {
    if (!files.handle(request, response)) response.writeHead(404).end('not here')
  })
  server.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  rmSync(root, { recursive: true, force: true })
})

describe('static files', () => {
  it('sends the brotli copy to a browser that takes it, and the file as it is otherwise', async () => {
    const compressed = await fetch(`${base}/assets/app.js`, { headers: { 'Accept-Encoding': 'br' } })
    expect(compressed.headers.get('Content-Encoding')).toBe('br')
    expect(compressed.headers.get('Content-Type')).toContain('javascript')
    expect(compressed.headers.get('Vary')).toBe('Accept-Encoding')
    expect(await compressed.text()).toBe(`${SCRIPT}// brotli copy`)
    const gzip = await fetch(`${base}/assets/app.js`, { headers: { 'Accept-Encoding': 'br;q=0, gzip' } })
    expect(gzip.headers.get('Content-Encoding')).toBe('gzip')
    expect(await gzip.text()).toBe(SCRIPT)
    const plain = await fetch(`${base}/tiny.txt`, { headers: { 'Accept-Encoding': 'br, gzip' } })
    expect(plain.headers.get('Content-Encoding')).toBeNull()
    expect(await plain.text()).toBe('hi')
  })

  it('caches hashed assets for a year without a tag to revalidate, other files for an hour with one, and answers a matching ETag with 304', async () => {
    const asset = await fetch(`${base}/assets/app.js?v=1`, { headers: { 'Accept-Encoding': 'br' } })
    expect(asset.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    expect(asset.headers.get('X-Content-Type-Options')).toBe('nosniff')
    // Its name changes with its bytes: a browser never asks whether it changed.
    expect(asset.headers.get('ETag')).toBeNull()
    expect((await fetch(`${base}/assets/app.js`, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': '"anything"' } })).status).toBe(200)
    const other = await fetch(`${base}/site.js`, { headers: { 'Accept-Encoding': 'br' } })
    expect(other.headers.get('Cache-Control')).toBe('public, max-age=3600')
    const etag = other.headers.get('ETag')!
    expect(etag).toMatch(/^".+-br"$/)
    const again = await fetch(`${base}/site.js`, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    // The identity copy has its own tag: a cache holding brotli bytes never revalidates them as plain.
    expect((await fetch(`${base}/site.js`, { headers: { 'Accept-Encoding': 'identity', 'If-None-Match': etag } })).status).toBe(200)
  })

  it('sends a script or a stylesheet only the headers that apply to it, and any other file all of them', async () => {
    for (const address of ['/assets/app.js', '/assets/app.css']) {
      const response = await fetch(`${base}${address}`, { headers: { 'Accept-Encoding': 'br' } })
      expect(response.headers.get('X-Content-Type-Options'), address).toBe('nosniff')
      expect(response.headers.get('Cross-Origin-Resource-Policy'), address).toBe('same-origin')
      expect(response.headers.get('Content-Security-Policy'), address).toBeNull()
      expect(response.headers.get('X-Frame-Options'), address).toBeNull()
    }
    const revalidated = await fetch(`${base}/site.js`, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': (await fetch(`${base}/site.js`, { headers: { 'Accept-Encoding': 'br' } })).headers.get('ETag')! } })
    expect(revalidated.status).toBe(304)
    expect(revalidated.headers.get('Content-Security-Policy')).toBeNull()
    // An SVG can be opened as a page, and runs its scripts there: it keeps the policy.
    const drawing = await fetch(`${base}/a%20file.svg`)
    expect(drawing.headers.get('Content-Security-Policy')).toBe("default-src 'self'")
    expect(drawing.headers.get('X-Frame-Options')).toBe('DENY')
  })

  it('answers HEAD without a body, finds escaped names, and leaves other methods and unknown paths to the site', async () => {
    const head = await fetch(`${base}/tiny.txt`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('Content-Length')).toBe('2')
    expect((await fetch(`${base}/a%20file.svg`)).headers.get('Content-Type')).toBe('image/svg+xml')
    for (const [method, address] of [
      ['POST', '/tiny.txt'],
      ['GET', '/assets/'],
      ['GET', '/assets/app.js.br'],
      ['GET', '/../package.json'],
      ['GET', '/%E0%A4%A'],
    ] as const) {
      expect((await fetch(`${base}${address}`, { method }).then((response) => response.text())), `${method} ${address}`).toBe('not here')
    }
  })

  it('remembers nothing per request: thousands of made-up long addresses leave it knowing the same files', async () => {
    const before = files.knownFiles()
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
    expect(files.knownFiles()).toBe(before)
    expect(before).toBe(5)
  })
})
