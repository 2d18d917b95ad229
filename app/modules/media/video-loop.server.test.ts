// The fixtures in tests/fixtures/loop-* were made with ffmpeg 5.1 (libx264, libx265, aac). ffmpeg is
// needed only to make them again, never to run these tests:
//
//   V="-c:v libx264 -preset veryslow -crf 40 -pix_fmt yuv420p -movflags +faststart -map_metadata -1 -fflags +bitexact"
//   ffmpeg -f lavfi -i testsrc=size=640x360:rate=10 -t 4 $V -an loop-h264.mp4
//   ffmpeg -f lavfi -i testsrc=size=640x360:rate=10 -f lavfi -i sine=frequency=440:sample_rate=22050 -t 4 $V -c:a aac -b:a 16k -ac 1 loop-h264-sound.mp4
//   ffmpeg -f lavfi -i testsrc=size=640x360:rate=1 -t 35 $V -an loop-long.mp4
//   ffmpeg -f lavfi -i testsrc=size=640x360:rate=10 -t 1.5 $V -an loop-short.mp4
//   ffmpeg -f lavfi -i testsrc=size=640x360:rate=10 -t 3 -c:v libx265 -preset medium -crf 40 -pix_fmt yuv420p -tag:v hvc1 -x265-params log-level=error -movflags +faststart -map_metadata -1 -fflags +bitexact -an loop-hevc.mp4
//   ffmpeg -f lavfi -i testsrc=size=320x180:rate=10 -t 3 $V -an loop-small.mp4
//   ffmpeg -f lavfi -i testsrc=size=640x360:rate=10 -t 3 $V -an loop.mov
//   ffmpeg -f lavfi -i sine=frequency=440:sample_rate=22050 -t 3 -c:a aac -b:a 16k -ac 1 -movflags +faststart -map_metadata -1 -fflags +bitexact loop-sound-only.mp4
//   ffmpeg -f lavfi -i testsrc=size=640x360:rate=10 -t 3 -c:v libvpx-vp9 -b:v 50k -deadline good -cpu-used 4 -movflags +faststart -map_metadata -1 -fflags +bitexact -an loop-vp9.mp4
//   ffmpeg -i loop-h264.mp4 -c copy -movflags frag_keyframe+empty_moov+default_base_moof -fflags +bitexact loop-fragmented.mp4
//   ffmpeg -f lavfi -i testsrc=size=640x360:rate=10 -t 3 $V -an portrait-source.mp4
//   ffmpeg -i portrait-source.mp4 -c copy -metadata:s:v:0 rotate=90 -movflags +faststart -fflags +bitexact loop-portrait.mp4
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  inspectVideoLoop,
  VIDEO_LOOP_CODECS,
  VIDEO_LOOP_CONTENT_TYPE,
  VIDEO_LOOP_MAX_BYTES,
  VIDEO_LOOP_MAX_SECONDS,
  VIDEO_LOOP_MIN_SECONDS,
  VIDEO_LOOP_MIN_WIDTH,
  type VideoLoopInspection,
} from './video-loop.server'

// mp4box writes each malformed box it meets to the console; most files here are malformed on purpose.
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => {
  vi.restoreAllMocks()
})

function fixture(name: string) {
  return new Uint8Array(readFileSync(new URL(`../../../tests/fixtures/${name}`, import.meta.url)))
}

const DAMAGED = 'This video file looks damaged: it lists more frames than a 30-second loop can hold. Export it as MP4 (H.264) and upload that.'

/** A copy of the file with the first box of a type changed; `contents` is where its contents start. */
function withBox(file: Uint8Array, type: string, change: (view: DataView, contents: number) => void) {
  const copy = file.slice()
  const at = Buffer.from(copy).indexOf(type)
  expect(at).toBeGreaterThan(0)
  change(new DataView(copy.buffer), at + 4)
  return copy
}

function messageFor(name: string) {
  const result = inspectVideoLoop(fixture(name))
  return result.ok ? undefined : result.message
}

describe('a video the hero can loop', () => {
  it('an H.264 MP4 without sound, with its length, size and codec', () => {
    expect(inspectVideoLoop(fixture('loop-h264.mp4'))).toEqual({
      ok: true,
      contentType: 'video/mp4',
      durationMs: 4000,
      width: 640,
      height: 360,
      hasSound: false,
      codec: 'avc1.64001f',
    })
  })

  it('an H.264 MP4 with a sound track, which the library notes will not be heard', () => {
    expect(inspectVideoLoop(fixture('loop-h264-sound.mp4'))).toMatchObject({ ok: true, hasSound: true, durationMs: 4000 })
  })

  it('a fragmented MP4, whose length is stated in its fragments rather than its header', () => {
    expect(inspectVideoLoop(fixture('loop-fragmented.mp4'))).toMatchObject({ ok: true, durationMs: 4000, width: 640 })
  })

  it('reads bytes that are a view into a larger buffer', () => {
    const file = fixture('loop-h264.mp4')
    const padded = new Uint8Array(file.length + 64)
    padded.set(file, 32)
    expect(inspectVideoLoop(padded.subarray(32, 32 + file.length))).toMatchObject({ ok: true, durationMs: 4000 })
  })

  it("reads a Node Buffer that is a view into a larger one, and leaves the caller's bytes as they were", () => {
    const file = fixture('loop-h264.mp4')
    const padded = Buffer.alloc(file.length + 64)
    padded.set(file, 32)
    // A Buffer's slice() is a view, not a copy: the check must copy the bytes it renames boxes in.
    const view = padded.subarray(32, 32 + file.length)
    expect(inspectVideoLoop(view)).toMatchObject({ ok: true, durationMs: 4000 })
    expect(Buffer.from(view).equals(Buffer.from(file))).toBe(true)
    expect(inspectVideoLoop(view)).toMatchObject({ ok: true, durationMs: 4000 })
  })
})

describe('a file the hero cannot loop, in a sentence for staff', () => {
  it('anything that is not an MP4 video', () => {
    expect(messageFor('swim-clip.webm')).toBe('This file is not an MP4 video.')
    expect(inspectVideoLoop(new TextEncoder().encode('Swim lab timetable, term 2'))).toEqual({ ok: false, message: 'This file is not an MP4 video.' })
    expect(inspectVideoLoop(new Uint8Array())).toEqual({ ok: false, message: 'This file is not an MP4 video.' })
  })

  it('a QuickTime movie, asking for MP4 (H.264) even when the video inside is H.264', () => {
    expect(messageFor('loop.mov')).toBe('This video is a QuickTime movie (.mov), which not every browser plays. Save or export it as MP4 (H.264) and upload that.')
  })

  it('HEVC, naming it as an iPhone does', () => {
    expect(messageFor('loop-hevc.mp4')).toBe("This video is HEVC (an iPhone's 'High Efficiency' format), which not every browser plays. Export it as MP4 (H.264) and upload that.")
  })

  it('an MP4 with sound and no picture', () => {
    expect(messageFor('loop-sound-only.mp4')).toBe('This file has no picture, only sound or data. Export it as MP4 (H.264) and upload that.')
  })

  it('a video longer than the limit, saying both lengths', () => {
    expect(messageFor('loop-long.mp4')).toBe(`This video is 35 seconds long; a loop may be ${VIDEO_LOOP_MAX_SECONDS} seconds at most.`)
  })

  it('a video shorter than a loop needs', () => {
    expect(messageFor('loop-short.mp4')).toBe(`This video is 1.5 seconds long; a loop must be at least ${VIDEO_LOOP_MIN_SECONDS} seconds.`)
  })

  it('a video narrower than the hero needs', () => {
    expect(messageFor('loop-small.mp4')).toBe(`This video is 320 pixels wide; a loop must be at least ${VIDEO_LOOP_MIN_WIDTH} pixels wide to look sharp across the home page.`)
  })

  it('a portrait video is as wide as it shows, not as its landscape frames are stored', () => {
    expect(messageFor('loop-portrait.mp4')).toBe('This video is 360 pixels wide; a loop must be at least 640 pixels wide to look sharp across the home page.')
  })

  it('a file over the size limit, before reading it', () => {
    const oversized = new Uint8Array(VIDEO_LOOP_MAX_BYTES + 1)
    oversized.set(fixture('loop-h264.mp4'))
    expect(inspectVideoLoop(oversized)).toEqual({ ok: false, message: 'This file is 20.1 MB; a video loop may be 20 MB at most.' })
    expect(inspectVideoLoop(new Uint8Array(VIDEO_LOOP_MAX_BYTES))).toEqual({ ok: false, message: 'This file is not an MP4 video.' })
  })

  it('a video in another format', () => {
    expect(messageFor('loop-vp9.mp4')).toBe("This video uses the 'vp09' format, which not every browser plays. Export it as MP4 (H.264) and upload that.")
  })

  it('a sample table claiming billions of samples, which mp4box would try to hold in memory', () => {
    const oneSizeForAll = withBox(fixture('loop-h264.mp4'), 'stsz', (view, contents) => {
      view.setUint32(contents + 4, 1000)
      view.setUint32(contents + 8, 0xffffffff)
    })
    expect(inspectVideoLoop(oneSizeForAll)).toEqual({ ok: false, message: DAMAGED })
    const runWithoutFields = withBox(fixture('loop-fragmented.mp4'), 'trun', (view, contents) => {
      view.setUint32(contents, 0)
      view.setUint32(contents + 4, 0xffffffff)
    })
    expect(inspectVideoLoop(runWithoutFields)).toEqual({ ok: false, message: DAMAGED })
  })

  it('a table whose count its box cannot hold', () => {
    const sizes = withBox(fixture('loop-h264.mp4'), 'stsz', (view, contents) => view.setUint32(contents + 8, 0x10000000))
    expect(inspectVideoLoop(sizes)).toEqual({ ok: false, message: 'This file is not an MP4 video.' })
  })

  it('boxes the check does not read are never parsed, whatever they claim', () => {
    // A sample group description claiming 700 million entries the file does not hold, written over the
    // edit list, which the check does not need: mp4box, parsing it, would give up on a playable video.
    const groups = withBox(fixture('loop-h264.mp4'), 'edts', (view, contents) => {
      view.setUint32(contents - 4, 0x73677064)
      view.setUint32(contents, 0x01000000)
      view.setUint32(contents + 4, 0x61766331)
      view.setUint32(contents + 8, 4)
      view.setUint32(contents + 12, 0x2aa46800)
    })
    expect(inspectVideoLoop(groups)).toMatchObject({ ok: true, durationMs: 4000 })
  })

  it('a file cut short after its header, whose pictures are missing', () => {
    const file = fixture('loop-h264.mp4')
    expect(inspectVideoLoop(file.subarray(0, file.length - 1))).toEqual({
      ok: false,
      message: 'This video file is cut short, perhaps by an interrupted copy or upload. Upload the whole file again.',
    })
    expect(inspectVideoLoop(file.subarray(0, 200))).toEqual({ ok: false, message: 'This file is not an MP4 video.' })
  })
})

/** What every answer must be, whatever the bytes: a sentence, or a loop that keeps every rule. */
function expectWellFormed(result: VideoLoopInspection) {
  if (!result.ok) {
    expect(result.message).toMatch(/^This .+\.$/)
    return
  }
  expect(result.contentType).toBe(VIDEO_LOOP_CONTENT_TYPE)
  expect(result.durationMs).toBeGreaterThanOrEqual(VIDEO_LOOP_MIN_SECONDS * 1000)
  expect(result.durationMs).toBeLessThanOrEqual(VIDEO_LOOP_MAX_SECONDS * 1000)
  expect(result.width).toBeGreaterThanOrEqual(VIDEO_LOOP_MIN_WIDTH)
  expect(VIDEO_LOOP_CODECS).toContain(result.codec.split('.')[0])
}

const FOURCCS = ['ftyp', 'moov', 'mvhd', 'trak', 'tkhd', 'mdia', 'mdhd', 'hdlr', 'minf', 'stbl', 'stsd', 'avc1', 'avcC', 'stts', 'stsz', 'stco', 'co64', 'moof', 'traf', 'trun', 'mvex', 'mdat', 'free']

/** A box with a chosen type, a declared size that may lie, and arbitrary contents. */
const box = fc.record({ type: fc.constantFrom(...FOURCCS), size: fc.oneof(fc.nat(64), fc.constant(0), fc.constant(1), fc.nat()), body: fc.uint8Array({ maxLength: 48 }) }).map(({ type, size, body }) => {
  const bytes = new Uint8Array(8 + body.length)
  new DataView(bytes.buffer).setUint32(0, size)
  bytes.set(new TextEncoder().encode(type), 4)
  bytes.set(body, 8)
  return bytes
})

/** Boxes nested up to four deep, so that sample tables and entries land where the check reads them. */
const boxTree: fc.Arbitrary<Uint8Array> = fc.letrec<{ tree: Uint8Array }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small', maxDepth: 4 }, box, fc.tuple(box, fc.array(tie('tree'), { maxLength: 4 })).map(([parent, children]) => sized(concat([parent, ...children])))),
})).tree

/** The box with its size field made to fit what follows, as a well-formed container's would. */
function sized(bytes: Uint8Array) {
  new DataView(bytes.buffer).setUint32(0, bytes.length)
  return bytes
}

const FILE_TYPE = fixture('loop-h264.mp4').subarray(0, 32)

function concat(parts: Uint8Array[]) {
  const bytes = new Uint8Array(parts.reduce((total, part) => total + part.length, 0))
  parts.reduce((offset, part) => (bytes.set(part, offset), offset + part.length), 0)
  return bytes
}

describe('any bytes at all get an answer, never an exception', () => {
  const valid = fixture('loop-h264-sound.mp4')

  it('arbitrary bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => expectWellFormed(inspectVideoLoop(bytes))), { numRuns: 500 })
  })

  it('trees of boxes whose sizes and counts lie, after a file type box', () => {
    fc.assert(fc.property(boxTree, (tree) => expectWellFormed(inspectVideoLoop(concat([FILE_TYPE, tree])))), { numRuns: 1000 })
  })

  it('a valid file cut short anywhere is refused', () => {
    fc.assert(
      fc.property(fc.nat(valid.length - 1), (length) => {
        const result = inspectVideoLoop(valid.subarray(0, length))
        expect(result.ok).toBe(false)
        expectWellFormed(result)
      }),
      { numRuns: 300 },
    )
  })

  it.each(['loop-h264-sound.mp4', 'loop-fragmented.mp4'])('%s with bytes overwritten', (name) => {
    const valid = fixture(name)
    const patch = fc.record({ at: fc.nat(valid.length - 1), value: fc.integer({ min: 0, max: 255 }) })
    fc.assert(
      fc.property(fc.array(patch, { minLength: 1, maxLength: 8 }), (patches) => {
        const bytes = valid.slice()
        for (const { at, value } of patches) bytes[at] = value
        expectWellFormed(inspectVideoLoop(bytes))
      }),
      { numRuns: 1000 },
    )
  })
})
