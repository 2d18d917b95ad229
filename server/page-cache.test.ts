import { createHash } from 'node:crypto'
import { request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import express from 'express'
import { afterEach, describe, expect, it } from 'vitest'
import { chooseEncoding } from './encoding'
import { inlineScriptHashes, pageCache, type PageCacheOptions } from './page-cache'

let server: Server | undefined
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

const page = (body: string, nonce: string) => `<!DOCTYPE html><html><head><script nonce="${nonce}">window.a = 1</script><script type="module" nonce="${nonce}" src="/assets/x.js"></script></head><body>${body}<script nonce="${nonce}">window.b = 2</script></body></html>`

/** An app whose pages say how many times they have been rendered; everything else answers "fallthrough". */
async function serve(overrides: Partial<PageCacheOptions> = {}) {
  let renders = 0
  let clock = 0
  const cache = pageCache({
    paths: ['/', '/pricing'],
    personalCookies: ['session', 'toast'],
    contentSecurityPolicy: (sources) => `script-src ${sources.join(' ')}`,
    render: async (path, _request, nonce) => {
      renders += 1
      await new Promise((resolve) => setTimeout(resolve, 20))
      return new Response(page(`${path} render ${renders}`, nonce), { headers: { 'Content-Type': 'text/html; charset=utf-8' } })
    },
    ttlMs: 60_000,
    now: () => clock,
    ...overrides,
  })
  const app = express()
  app.use((_request, response, next) => {
    response.locals.cspNonce = `nonce${Math.random()}`
    response.setHeader('Content-Security-Policy', 'per-request')
    next()
  })
  app.use(cache.middleware)
  app.use((_request, response) => void response.send('fallthrough'))
  server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server!.once('listening', resolve))
  const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, { headers: { 'Accept-Encoding': 'identity', ...headers } })
    return { status: response.status, headers: response.headers, body: await response.text() }
  }
  return { cache, get, renders: () => renders, tick: (ms: number) => (clock += ms) }
}

describe('the page cache', () => {
  it('renders an anonymous page once and serves it from memory with an ETag; a matching If-None-Match gets 304', async () => {
    const { get, renders } = await serve()
    const first = await get('/pricing')
    const second = await get('/pricing')
    expect(first.body).toContain('/pricing render 1')
    expect(second.body).toBe(first.body)
    expect(renders()).toBe(1)
    expect(second.headers.get('X-Page-Cache')).toBe('hit')
    expect(second.headers.get('Cache-Control')).toBe('public, no-cache')
    expect(second.headers.get('Vary')).toBe('Accept-Encoding, Cookie, Save-Data')
    const etag = second.headers.get('ETag')!
    expect(etag).toMatch(/^"[\w-]{32}"$/)
    const revalidated = await get('/pricing', { 'If-None-Match': `"other", ${etag}` })
    expect(revalidated.status).toBe(304)
    expect(revalidated.body).toBe('')
    expect(revalidated.headers.get('Content-Security-Policy')).toBe(second.headers.get('Content-Security-Policy'))
    expect((await get('/pricing', { 'If-None-Match': '"stale"' })).status).toBe(200)
  })

  it('allows exactly the inline scripts of the cached copy by hash, never a nonce that other visitors could read', async () => {
    const { get } = await serve()
    const { headers, body } = await get('/')
    const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
    expect(headers.get('Content-Security-Policy')).toBe(`script-src ${sha('window.a = 1')} ${sha('window.b = 2')}`)
    const nonce = /nonce="([^"]+)"/.exec(body)![1]!
    expect(headers.get('Content-Security-Policy')).not.toContain(nonce)
  })

  it('renders as usual for signed-in visitors, waiting messages, query strings and other methods', async () => {
    const { get, renders } = await serve()
    await get('/')
    for (const [path, headers] of [
      ['/', { Cookie: 'theme=dark; session=abc' }],
      ['/', { Cookie: 'toast=xyz' }],
      ['/?ref=mail', {}],
      ['/about', {}],
    ] as const) {
      const response = await get(path, headers)
      expect(response.body, `${path} ${JSON.stringify(headers)}`).toBe('fallthrough')
      expect(response.headers.get('Content-Security-Policy')).toBe('per-request')
    }
    expect((await get('/', { Cookie: 'sessionish=1; theme=dark' })).headers.get('X-Page-Cache')).toBe('hit')
    expect(renders()).toBe(1)
  })

  it('keeps a copy of its own for browsers saving data, which the page may send less', async () => {
    const { get, renders } = await serve()
    const usual = await get('/')
    const saving = await get('/', { 'Save-Data': 'on' })
    expect(saving.body).toContain('/ render 2')
    expect((await get('/', { 'Save-Data': ' On ' })).body).toBe(saving.body)
    expect((await get('/', { 'Save-Data': 'off' })).body).toBe(usual.body)
    expect(renders()).toBe(2)
  })

  it('keeps one copy per listed page, however many query strings, paths and spellings visitors make up', async () => {
    const { cache, get } = await serve()
    await get('/pricing')
    for (let index = 0; index < 200; index += 1) {
      for (const path of [`/pricing?utm=${index}`, `/?${'q'.repeat(500)}=${index}`, `/pricing/${index}`, `/PRICING?${index}`, `//pricing${index}`]) await get(path)
    }
    expect(cache.size).toBe(1)
  })

  it('renders again after a content change, and after the time to live', async () => {
    const { cache, get, tick } = await serve()
    expect((await get('/')).body).toContain('render 1')
    cache.clear()
    expect((await get('/')).body).toContain('render 2')
    tick(59_000)
    expect((await get('/')).body).toContain('render 2')
    tick(2_000)
    expect((await get('/')).body).toContain('render 3')
  })

  it('renders a page once however many visitors arrive together', async () => {
    const { get, renders } = await serve()
    const bodies = await Promise.all(Array.from({ length: 25 }, () => get('/')))
    expect(new Set(bodies.map((response) => response.body)).size).toBe(1)
    expect(renders()).toBe(1)
  })

  it('keeps nothing rendered while content changed, and nothing that is not a plain 200', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let started!: () => void
    const rendering = new Promise<void>((resolve) => (started = resolve))
    let count = 0
    const { cache, get } = await serve({
      render: async (path, _request, nonce) => {
        count += 1
        if (count === 1) {
          started()
          await gate
        }
        if (path === '/pricing') return new Response('oops', { status: 500 })
        return new Response(page(`render ${count}`, nonce), { headers: { 'Content-Type': 'text/html' } })
      },
    })
    const during = get('/')
    // The content changes while the first render is under way.
    await rendering
    cache.clear()
    release()
    expect((await during).body).toContain('render 1')
    expect((await get('/')).body).toContain('render 2')
    expect((await get('/pricing')).body).toBe('fallthrough')
    expect(cache.size).toBe(1)
  })

  it('answers every address that leads to the missing-page page with one copy, with its 404, kept by no browser', async () => {
    let renders = 0
    const { cache, get } = await serve({
      isNotFound: (pathname) => pathname.startsWith('/missing'),
      render: async (path, _request, nonce) => {
        renders += 1
        return new Response(page('not found', nonce), { status: path.startsWith('/missing') ? 404 : 200, headers: { 'Content-Type': 'text/html; charset=utf-8' } })
      },
    })
    for (let index = 0; index < 50; index += 1) {
      const response = await get(`/missing/${index}?q=${index}`)
      expect(response.status).toBe(404)
      expect(response.body).toContain('not found')
      expect(response.headers.get('Cache-Control')).toBe('no-store')
      expect(response.headers.get('ETag')).toBeNull()
    }
    expect(renders).toBe(1)
    expect(cache.size).toBe(1)
    // Signed in, a data request, another method: rendered for the request as usual.
    expect((await get('/missing/1', { Cookie: 'session=abc' })).body).toBe('fallthrough')
    expect((await get('/missing/1.data')).body).toBe('fallthrough')
    expect((await get('/elsewhere')).body).toBe('fallthrough')
  })

  it('sends brotli or gzip, precompressed, as the browser accepts', async () => {
    const { get } = await serve()
    const plain = (await get('/')).body
    const port = (server!.address() as AddressInfo).port
    const raw = (acceptEncoding: string) =>
      new Promise<{ encoding: string | undefined; length: number; bytes: Buffer }>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: '/', headers: { 'Accept-Encoding': acceptEncoding } }, (response) => {
          const chunks: Buffer[] = []
          response.on('data', (chunk: Buffer) => chunks.push(chunk))
          response.on('end', () => resolve({ encoding: response.headers['content-encoding'], length: Number(response.headers['content-length']), bytes: Buffer.concat(chunks) }))
        })
          .on('error', reject)
          .end()
      })
    const br = await raw('gzip, deflate, br')
    expect(br.encoding).toBe('br')
    expect(br.length).toBe(br.bytes.length)
    expect(brotliDecompressSync(br.bytes).toString()).toBe(plain)
    const gzip = await raw('br;q=0, gzip')
    expect(gzip.encoding).toBe('gzip')
    expect(gunzipSync(gzip.bytes).toString()).toBe(plain)
    const identity = await raw('identity')
    expect(identity.encoding).toBeUndefined()
    expect(identity.bytes.toString()).toBe(plain)
  })
})

describe('choosing an encoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['identity', 'identity'],
    [undefined, 'identity'],
    ['gzip;q=0', 'identity'],
  ])('%s → %s', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected)
  })
})

describe('inline script hashes', () => {
  it('skips scripts with a src and empty ones, and counts each distinct script once', () => {
    expect(inlineScriptHashes('<script src="/a.js"></script><script></script><script>x()</script><SCRIPT type="module">x()</SCRIPT>')).toEqual([`'sha256-${createHash('sha256').update('x()').digest('base64')}'`])
  })
})
