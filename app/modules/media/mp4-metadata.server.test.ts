import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { stripMp4Metadata } from './mp4-metadata.server'
import { inspectVideoLoop } from './video-loop.server'

// tests/fixtures/loop-location.mp4: 3 s of H.264 at 640×360 carrying where it was filmed, as a phone writes it:
// ffmpeg -f lavfi -i testsrc=size=640x360:rate=10 -t 3 -c:v libx264 -pix_fmt yuv420p -b:v 60k \
//   -movflags +faststart+use_metadata_tags -metadata "com.apple.quicktime.location.ISO6709=+12.9716+077.5946+000.000/" \
//   -metadata title="Pool test" loop-location.mp4
const filmed = readFileSync(new URL('../../../tests/fixtures/loop-location.mp4', import.meta.url))

describe("a video loop's metadata", () => {
  it('is blanked: where it was filmed and its title are gone, and the video is the same length and still plays', () => {
    expect(filmed.includes(Buffer.from('+12.9716+077.5946'))).toBe(true)
    const stripped = stripMp4Metadata(filmed)
    expect(stripped.length).toBe(filmed.length)
    expect(stripped.includes(Buffer.from('+12.9716+077.5946'))).toBe(false)
    expect(stripped.includes(Buffer.from('Pool test'))).toBe(false)
    expect(stripped.includes(Buffer.from('udta'))).toBe(false)
    // The media data is untouched, so the offsets that point into it stay true.
    const mdat = filmed.indexOf('mdat') - 4
    expect(stripped.subarray(mdat).equals(filmed.subarray(mdat))).toBe(true)
    expect(inspectVideoLoop(stripped)).toEqual(inspectVideoLoop(filmed))
    expect(inspectVideoLoop(stripped)).toMatchObject({ ok: true, width: 640, height: 360 })
  })

  it('never throws and never changes the length, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), fc.nat(filmed.length), (noise, cut) => {
        expect(stripMp4Metadata(noise).length).toBe(noise.length)
        expect(stripMp4Metadata(filmed.subarray(0, cut)).length).toBe(cut)
      }),
    )
  })
})
