import { expect } from 'vitest'

/**
 * Checks a file's answers to the byte ranges a video player asks for: the first bytes, a middle,
 * the last N (`bytes=-N`), from a byte to the end, a range past the end (416 naming the size), a
 * HEAD, and the whole file, each with the private file's headers.
 */
export async function expectRanges({ get, bytes, contentType }: { get: (headers: Record<string, string>, method?: string) => Promise<Response>; bytes: Uint8Array; contentType: string }) {
  const size = bytes.length
  const slice = (start: number, end: number) => Buffer.from(bytes.subarray(start, end + 1))
  const cases: Array<[string, number, number]> = [
    ['bytes=0-99', 0, 99],
    ['bytes=400-499', 400, 499],
    ['bytes=-100', size - 100, size - 1],
    [`bytes=${size - 250}-`, size - 250, size - 1],
    [`bytes=${size - 10}-${size + 500}`, size - 10, size - 1],
  ]
  for (const [range, start, end] of cases) {
    const answer = await get({ Range: range })
    expect(answer.status, range).toBe(206)
    expect(answer.headers.get('Content-Range'), range).toBe(`bytes ${start}-${end}/${size}`)
    expect(answer.headers.get('Content-Length'), range).toBe(String(end - start + 1))
    expect(Buffer.from(await answer.arrayBuffer()).equals(slice(start, end)), range).toBe(true)
  }
  const beyond = await get({ Range: `bytes=${size}-${size + 10}` })
  expect(beyond.status).toBe(416)
  expect(beyond.headers.get('Content-Range')).toBe(`bytes */${size}`)
  await beyond.arrayBuffer()

  const head = await get({}, 'HEAD')
  expect(head.status).toBe(200)
  expect(head.headers.get('Content-Length')).toBe(String(size))
  expect(head.headers.get('Accept-Ranges')).toBe('bytes')
  expect((await head.arrayBuffer()).byteLength).toBe(0)

  const whole = await get({})
  expect(whole.status).toBe(200)
  expect(whole.headers.get('Content-Type')).toBe(contentType)
  expect(whole.headers.get('Cache-Control')).toBe('private, no-store')
  expect(whole.headers.get('X-Content-Type-Options')).toBe('nosniff')
  expect(whole.headers.get('Content-Disposition')).toBe('inline')
  expect(whole.headers.get('Accept-Ranges')).toBe('bytes')
  expect(Buffer.from(await whole.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true)
}
