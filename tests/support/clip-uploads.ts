import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import type { Db, Database } from '~/db/client.server'
import { useDatabase } from '~/db/client.server'
import { eq } from 'drizzle-orm'
import { bookings as bookingsTable, shareLinks } from '~/db/schema'
import { addDays } from '~/lib/lab-time'
import { newShareToken } from '~/modules/analyses/access.server'
import { confirmedBookings, recordedAnalysis } from './analyses'
import { createCustomers, signInUser } from './booking'

/**
 * The raw tus protocol (1.0.0), as a client speaks it over HTTP, for the upload tests: create an
 * upload, send bytes from an offset (cut off after some if asked), ask for the offset.
 */
export type TusCaller = { url: string; cookie?: string; origin?: string }

const base64 = (text: string) => Buffer.from(text).toString('base64')

export function clipMetadata(fields: Record<string, string | number>) {
  return Object.entries(fields)
    .map(([name, value]) => `${name} ${base64(String(value))}`)
    .join(',')
}

function headersOf(caller: TusCaller, extra: Record<string, string> = {}) {
  return { 'Tus-Resumable': '1.0.0', ...(caller.cookie && { Cookie: caller.cookie }), Origin: caller.origin ?? caller.url, ...extra }
}

/** POST: a new upload of `size` bytes; with `body`, its bytes too (creation-with-upload). */
export async function createUpload(caller: TusCaller, size: number, metadata: Record<string, string | number>, body?: Uint8Array) {
  const response = await fetch(`${caller.url}/uploads/clips`, {
    method: 'POST',
    headers: headersOf(caller, { 'Upload-Length': String(size), 'Upload-Metadata': clipMetadata(metadata), ...(body && { 'Content-Type': 'application/offset+octet-stream' }) }),
    body: body ? Buffer.from(body) : undefined,
  })
  const location = response.headers.get('Location')
  return { status: response.status, text: await response.text(), location: location ? new URL(location, caller.url).pathname : null, offset: Number(response.headers.get('Upload-Offset') ?? NaN), clipId: Number(response.headers.get('Clip-Id') ?? NaN) }
}

export async function uploadOffset(caller: TusCaller, location: string) {
  const response = await fetch(`${caller.url}${location}`, { method: 'HEAD', headers: headersOf(caller) })
  return { status: response.status, offset: Number(response.headers.get('Upload-Offset')), length: Number(response.headers.get('Upload-Length')) }
}

/**
 * PATCH: the file's bytes from `offset`, streamed from disk. With `cutAfter`, the connection is
 * cut once that many bytes have been sent, as a dropped network would.
 */
export function patchFrom(caller: TusCaller, location: string, file: string, { offset, size, cutAfter }: { offset: number; size: number; cutAfter?: number }) {
  return new Promise<{ status: number; text: string; offset: number; clipId: number } | 'cut'>((resolve, reject) => {
    const request = httpRequest(`${caller.url}${location}`, {
      method: 'PATCH',
      headers: headersOf(caller, { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream', 'Content-Length': String(size - offset) }),
    })
    let sent = 0
    let cut = false
    request.on('response', (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text, offset: Number(response.headers['upload-offset']), clipId: Number(response.headers['clip-id'] ?? NaN) }))
    })
    request.on('error', (error) => (cut ? resolve('cut') : reject(error)))
    const source = createReadStream(file, { start: offset, highWaterMark: 256 * 1024 })
    source.on('data', (chunk) => {
      if (cut) return
      sent += chunk.length
      if (!request.write(chunk)) source.pause()
      if (cutAfter !== undefined && sent >= cutAfter) {
        cut = true
        source.destroy()
        request.destroy()
        resolve('cut')
      }
    })
    request.on('drain', () => source.resume())
    source.on('end', () => request.end())
    source.on('error', reject)
  })
}

/**
 * A file of `size` bytes in `path` that starts like an MP4 (an 'ftyp' box), each mebibyte after
 * it different from the others (its number in its first bytes), and its SHA-256.
 */
export async function makeVideoFile(path: string, size: number) {
  const hash = createHash('sha256')
  const out = createWriteStream(path)
  const block = Buffer.alloc(1024 * 1024)
  for (let index = 0; index < block.length; index++) block[index] = (index * 7919) & 0xff
  Buffer.from([0, 0, 0, 0x18, ...Buffer.from('ftypisom'), 0, 0, 2, 0]).copy(block)
  let written = 0
  for (let chunk = 0; written < size; chunk++) {
    const piece = Buffer.from(block.subarray(0, Math.min(block.length, size - written)))
    if (chunk > 0) piece.writeUInt32BE(chunk, 0)
    hash.update(piece)
    written += piece.length
    if (!out.write(piece)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
  return hash.digest('hex')
}

export async function sha256Of(path: string) {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

export const fileBytes = (path: string) => readFile(path)

/** The resident memory of a process, in bytes (Linux). */
export async function residentBytes(pid: number) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) * 1024
}

/**
 * What the analysis-file tests start from, written into a test site's database before it starts:
 * a family's account with three confirmed bookings (a published analysis, a draft, and another
 * published one) and a cancelled one (references[3]), a stranger's account, signed-in cookies of both, and share links for the
 * family's swimmer: one in force, one revoked, one expired.
 */
export type AnalysisFixture = {
  references: string[]
  published: number
  draft: number
  spare: number
  ownerCookie: string
  strangerCookie: string
  share: { valid: string; revoked: string; expired: string }
}

export async function prepareAnalysisFixture(db: Db): Promise<AnalysisFixture> {
  useDatabase({ db } as unknown as Database)
  try {
    const [owner, stranger] = await createCustomers(2, `fam${Date.now() % 100000}`)
    const { bookings } = await confirmedBookings(['2030-03-04', '2030-06-03', '2030-09-02', '2030-12-02'], owner)
    await db.update(bookingsTable).set({ status: 'cancelled' }).where(eq(bookingsTable.id, bookings[3]!.bookingId))
    const published = await recordedAnalysis(bookings[0]!.bookingId)
    const draft = await recordedAnalysis(bookings[1]!.bookingId, { publishedAt: null })
    const spare = await recordedAnalysis(bookings[2]!.bookingId)
    const links = { valid: newShareToken(), revoked: newShareToken(), expired: newShareToken() }
    const now = new Date()
    await db.insert(shareLinks).values([
      { accountId: owner!.userId!, swimmerId: owner!.swimmerId!, tokenHash: links.valid.tokenHash, expiresAt: addDays(now, 30) },
      { accountId: owner!.userId!, swimmerId: owner!.swimmerId!, tokenHash: links.revoked.tokenHash, expiresAt: addDays(now, 30), revokedAt: now },
      { accountId: owner!.userId!, swimmerId: owner!.swimmerId!, tokenHash: links.expired.tokenHash, createdAt: addDays(now, -40), expiresAt: addDays(now, -1) },
    ])
    return {
      references: bookings.map((booking) => booking.reference),
      published: published.analysisId,
      draft: draft.analysisId,
      spare: spare.analysisId,
      ownerCookie: (await signInUser(owner!.userId!)).cookie,
      strangerCookie: (await signInUser(stranger!.userId!)).cookie,
      share: { valid: links.valid.token, revoked: links.revoked.token, expired: links.expired.token },
    }
  } finally {
    useDatabase(undefined)
  }
}
