import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeS3 } from '../support/fake-s3'
import { useTestSite } from '../support/site'
import type { Visitor } from '../support/visitor'
import { createUpload, makeVideoFile, patchFrom, prepareAnalysisFixture, sha256Of, uploadOffset, type AnalysisFixture, type TusCaller } from '../support/clip-uploads'
import { expectRanges } from '../support/ranges'

// The same uploads and ranges as analysis-files.test.ts, with the files in an S3 bucket: a local
// S3-compatible server (tests/support/fake-s3.ts) that the site reaches with the AWS SDK and
// @tus/s3-store over HTTP, as it would reach AWS S3, Cloudflare R2 or MinIO.
let s3: Awaited<ReturnType<typeof startFakeS3>>
beforeAll(async () => {
  s3 = await startFakeS3()
})
afterAll(async () => {
  await s3?.close()
})

let fixture: AnalysisFixture
const site = useTestSite(() => s3.env, { prepare: async (db) => void (fixture = await prepareAnalysisFixture(db)) })

const MB = 1024 * 1024
let work: string
let staff: Visitor
let staffCaller: TusCaller
beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'clip-uploads-s3-'))
  staff = await site.sharedStaff()
  staffCaller = { url: site.url, cookie: [...staff.cookies].map(([name, value]) => `${name}=${value}`).join('; ') }
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('clips in an S3 bucket', () => {
  it('a clip cut off part-way resumes (multipart upload, parts listed) and arrives byte for byte; its ranges come from the bucket', async () => {
    const size = 24 * MB
    const file = path.join(work, 'start.mp4')
    const sha256 = await makeVideoFile(file, size)
    const created = await createUpload(staffCaller, size, { analysisId: fixture.published, title: 'Dive start', angle: 'above_water', filename: 'start.mp4' })
    expect(created.status, created.text).toBe(201)
    const key = created.location!.split('/').pop()!

    expect(await patchFrom(staffCaller, created.location!, file, { offset: 0, size, cutAfter: 13 * MB })).toBe('cut')
    const after = await uploadOffset(staffCaller, created.location!)
    expect(after.status).toBe(200)
    expect(after.offset).toBeGreaterThan(0)
    expect(after.offset).toBeLessThan(size)
    const finished = await patchFrom(staffCaller, created.location!, file, { offset: after.offset, size })
    expect(finished).toMatchObject({ status: 204, offset: size })
    expect(await sha256Of(s3.file(key)!)).toBe(sha256)
    // The offset came from the bucket's list of the upload's parts.
    expect(s3.requests).toContain('GET object uploadId')
    expect(s3.unfinishedUploads()).toBe(0)

    const clipId = (finished as { clipId: number }).clipId
    const bytes = new Uint8Array(await (await import('node:fs/promises')).readFile(file))
    await expectRanges({ get: (headers, method) => fetch(`${site.url}/analyses/clips/${clipId}/video`, { method, headers: { ...headers, Cookie: staffCaller.cookie! } }), bytes, contentType: 'video/mp4' })
    // Guests learn nothing, from the bucket or the site.
    expect((await fetch(`${site.url}/analyses/clips/${clipId}/video`)).status).toBe(404)
    expect((await fetch(`${site.url}/analyses/clips/${clipId}/video?share=${fixture.share.valid}`, { headers: { Range: 'bytes=-100' } })).status).toBe(206)

    // Removing the clip deletes the object and what the upload kept beside it.
    expect(s3.keys()).toEqual(expect.arrayContaining([key, `${key}.info`]))
    expect((await staff.post(`/admin/bookings/${fixture.references[0]}/analysis/clips`, { intent: 'remove', clipId: String(clipId) })).status).toBe(302)
    expect(s3.keys().filter((name) => name.startsWith(key))).toEqual([])
  }, 120_000)

  it('refuses a file that is not a video and leaves nothing in the bucket', async () => {
    const before = s3.keys().sort()
    const bytes = new TextEncoder().encode('not a video at all')
    const refused = await createUpload(staffCaller, bytes.length, { analysisId: fixture.published, title: 'Notes', angle: 'overhead', filename: 'notes.pdf' }, bytes)
    expect(refused).toMatchObject({ status: 400, text: 'notes.pdf is not a video (mp4, webm or mov).' })
    expect(s3.keys().sort()).toEqual(before)
    expect(s3.unfinishedUploads()).toBe(0)
  })
})
