import { createFile, MP4BoxBuffer, type ISOFile, type Matrix, type Movie, type Track } from 'mp4box'
import { VIDEO_LOOP_MAX_BYTES, VIDEO_LOOP_MAX_SECONDS } from './limits'

export { VIDEO_LOOP_MAX_BYTES, VIDEO_LOOP_MAX_SECONDS }

// A video loop plays muted behind the home page's hero on every visitor's phone. The site serves the
// file as uploaded, without a transcoder, so the upload itself must already be what every phone
// browser plays: an MP4 with H.264 video, long enough to loop without a visible jump, short and small
// enough to load on a mobile connection, and wide enough to stay sharp across the hero. The checks
// read only the file's boxes, never decode a frame, and answer staff in a sentence.
//
// mp4box was written for well-formed files: some of its box parsers fill an array entry for every
// entry a count field claims before checking the file holds them, so a few crafted bytes can exhaust
// the heap, which ends the server's process (a fatal V8 error, not an exception). So the file is
// walked first: the boxes this check needs are kept and their counts checked against their sizes,
// and every other box is renamed 'free' in a copy, which mp4box skips without parsing.

/** The type the site serves a loop with; the only container every phone browser plays. */
export const VIDEO_LOOP_CONTENT_TYPE = 'video/mp4'

/** The shortest loop: anything shorter repeats so often that the jump back to the start shows. */
export const VIDEO_LOOP_MIN_SECONDS = 2

/** The narrowest loop in pixels: the hero spans the screen, and a narrower video looks blurred there. */
export const VIDEO_LOOP_MIN_WIDTH = 640

/** H.264's sample entries (avc1 keeps the decoder settings in the header, avc3 in the stream). */
export const VIDEO_LOOP_CODECS: readonly string[] = ['avc1', 'avc3']

export type VideoLoopInspection =
  | {
      ok: true
      contentType: typeof VIDEO_LOOP_CONTENT_TYPE
      durationMs: number
      width: number
      height: number
      /** The site always plays loops muted; the library tells staff that the sound will not be heard. */
      hasSound: boolean
      /** The video track's codec string, as in `avc1.64001f`. */
      codec: string
    }
  | { ok: false; message: string }

const NOT_MP4 = 'This file is not an MP4 video.'
const EXPORT_AS_MP4 = 'Export it as MP4 (H.264) and upload that.'

/**
 * What the major brand of a QuickTime movie holds ('qt  '): boxes like an MP4's, but not every browser
 * plays the file. mp4box reads sound entries differently in such a file, and by the same test.
 */
const QUICKTIME_BRAND = 'qt'

/**
 * The most samples (frames of video, packets of sound) a file may list, all tracks together. A
 * 30-second loop at 240 frames a second with two sound tracks lists under 12,000; mp4box keeps an
 * object for each, so the cap bounds its memory whatever the tables claim.
 */
const MAX_SAMPLES = 100_000

/** Boxes whose child boxes start right after their header and hold what this check reads. */
const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'mvex', 'moof', 'traf'])

/** Boxes mp4box reads for the movie's length, tracks and sample tables, besides the containers. */
const READ_BOXES = new Set(['ftyp', 'mdat', 'mvhd', 'tkhd', 'mdhd', 'hdlr', 'stts', 'stsc', 'stsz', 'stco', 'co64', 'mehd', 'trex', 'mfhd', 'tfhd', 'tfdt', 'trun'])

/**
 * Tables mp4box reads entry by entry, with the bytes of one entry; the count follows the version and
 * flags. A count the box cannot hold marks a damaged or crafted file.
 */
const TABLES: Record<string, { entryBytes: number }> = { stts: { entryBytes: 8 }, stsc: { entryBytes: 12 }, stco: { entryBytes: 4 }, co64: { entryBytes: 8 } }

/**
 * Sample entries mp4box may read, by type: how many bytes of fields come before their own child
 * boxes (ISO 14496-12: 78 for video, 28 for sound outside QuickTime), and which children to keep.
 * Of a video entry only the H.264 configuration is kept, which the codec string is made from.
 */
const SAMPLE_ENTRIES = new Map<string, { fieldBytes: number; keep: ReadonlySet<string> }>([
  ...VIDEO_LOOP_CODECS.map((type) => [type, { fieldBytes: 78, keep: new Set(['avcC']) }] as const),
  ...['mp4a', 'ac-3', 'ec-3', 'Opus', 'fLaC'].map((type) => [type, { fieldBytes: 28, keep: new Set<string>() }] as const),
])

/** An iPhone's default 'High Efficiency' video, the codec staff meet most after H.264. */
const HEVC_ENTRIES = new Set(['hvc1', 'hev1'])

/** A reason to refuse the file, found while walking its boxes and carried out of the walk. */
class Refusal extends Error {}

/** A box's place in the file: where it starts, where its contents start, and where it ends. */
interface BoxPlace {
  type: string
  start: number
  contents: number
  end: number
}

/** The walk's state: the copy whose boxes are renamed, and the samples counted so far. */
interface Walk {
  view: DataView
  samples: number
}

/** What mp4box read from a file: the movie's summary, and whether every sample lies within the bytes. */
interface ReadMovie {
  movie: Movie
  complete: boolean
}

/**
 * Whether these bytes may be a hero's video loop, and if so its length, size and codec. Never throws:
 * the bytes come from an upload, and a broken or hostile file is answered with a message like any other.
 */
export function inspectVideoLoop(bytes: Uint8Array): VideoLoopInspection {
  if (bytes.byteLength > VIDEO_LOOP_MAX_BYTES) return refuse(`This file is ${megabytesText(bytes.byteLength)}; a video loop may be ${VIDEO_LOOP_MAX_BYTES / (1024 * 1024)} MB at most.`)
  const safe = withOnlyReadBoxes(bytes)
  if (typeof safe === 'string') return refuse(safe)
  const read = readMovie(safe)
  if (!read) return refuse(NOT_MP4)
  if (!read.complete) return refuse('This video file is cut short, perhaps by an interrupted copy or upload. Upload the whole file again.')
  return checkMovie(read.movie)
}

/** The rules on what the file holds, in the order a staff member can act on them. */
function checkMovie(movie: Movie): VideoLoopInspection {
  const video = movie.videoTracks[0]
  if (!video) return refuse(`This file has no picture, only sound or data. ${EXPORT_AS_MP4}`)
  const durationMs = movieDurationMs(movie)
  if (durationMs < VIDEO_LOOP_MIN_SECONDS * 1000) return refuse(`This video is ${secondsText(durationMs, Math.floor)} long; a loop must be at least ${VIDEO_LOOP_MIN_SECONDS} seconds.`)
  if (durationMs > VIDEO_LOOP_MAX_SECONDS * 1000) return refuse(`This video is ${secondsText(durationMs, Math.ceil)} long; a loop may be ${VIDEO_LOOP_MAX_SECONDS} seconds at most.`)
  const { width, height } = displayedSize(video)
  if (width < VIDEO_LOOP_MIN_WIDTH) return refuse(`This video is ${width} pixels wide; a loop must be at least ${VIDEO_LOOP_MIN_WIDTH} pixels wide to look sharp across the home page.`)
  return { ok: true, contentType: VIDEO_LOOP_CONTENT_TYPE, durationMs, width, height, hasSound: movie.audioTracks.length > 0, codec: video.codec }
}

function refuse(message: string): VideoLoopInspection {
  return { ok: false, message }
}

/**
 * A copy of the file in which every box this check does not read is renamed 'free', or the message
 * that refuses the file. The copy also keeps mp4box off the caller's buffer, which may be a view into
 * a larger one (Node's pool).
 */
function withOnlyReadBoxes(bytes: Uint8Array): Uint8Array | string {
  // A new array of its own (at offset 0 of its own buffer): a Node Buffer's slice() is a view, which
  // the renaming would write through to the caller's bytes, at the offset of a pooled buffer.
  const copy = new Uint8Array(bytes)
  const walk: Walk = { view: new DataView(copy.buffer), samples: 0 }
  try {
    walkTopLevel(walk)
    return copy
  } catch (error) {
    return error instanceof Refusal ? error.message : NOT_MP4
  }
}

/**
 * The file's top-level boxes, which must start with a file type box. A box that runs past the end is
 * hidden: mp4box waits for the rest of it, and a cut-short file is told apart by its samples.
 */
function walkTopLevel(walk: Walk) {
  const fileEnd = walk.view.byteLength
  let at = 0
  while (fileEnd - at >= 8) {
    const box = boxAt(walk.view, at, fileEnd)
    if (at === 0) checkFileType(walk.view, box)
    if (box.end > fileEnd) hide(walk.view, box)
    else visit(walk, box)
    at = box.end
  }
  if (at === 0) throw new Refusal(NOT_MP4)
}

/** MP4 and QuickTime share their boxes; only the file type box's major brand tells them apart. */
function checkFileType(view: DataView, box: BoxPlace) {
  if (box.type !== 'ftyp' || box.end - box.contents < 4) throw new Refusal(NOT_MP4)
  if (fourccAt(view, box.contents).includes(QUICKTIME_BRAND)) throw new Refusal('This video is a QuickTime movie (.mov), which not every browser plays. Save or export it as MP4 (H.264) and upload that.')
}

function visit(walk: Walk, box: BoxPlace) {
  if (CONTAINERS.has(box.type)) visitChildren(walk, box.contents, box.end, (child) => visit(walk, child))
  else if (box.type === 'stsd') visitSampleEntries(walk, box)
  else if (READ_BOXES.has(box.type)) checkCounts(walk, box)
  else hide(walk.view, box)
}

/** The boxes between `from` and `end`, each of which must fit; fewer than 8 bytes left end the list, as in mp4box. */
function visitChildren(walk: Walk, from: number, end: number, visitChild: (child: BoxPlace) => void) {
  let at = from
  while (end - at >= 8) {
    const child = boxAt(walk.view, at, end)
    if (child.end > end) throw new Refusal(NOT_MP4)
    visitChild(child)
    at = child.end
  }
}

/**
 * The sample entries: one that is not H.264 video or a common sound format is refused here, with the
 * advice to export as MP4 (H.264), so that mp4box never reads an entry of a kind this check does not know.
 */
function visitSampleEntries(walk: Walk, stsd: BoxPlace) {
  visitChildren(walk, stsd.contents + 8, stsd.end, (entry) => {
    if (HEVC_ENTRIES.has(entry.type)) throw new Refusal(`This video is HEVC (an iPhone's 'High Efficiency' format), which not every browser plays. ${EXPORT_AS_MP4}`)
    const known = SAMPLE_ENTRIES.get(entry.type)
    if (!known) throw new Refusal(/^[\x20-\x7e]{4}$/.test(entry.type) ? `This video uses the '${entry.type.trim()}' format, which not every browser plays. ${EXPORT_AS_MP4}` : NOT_MP4)
    visitChildren(walk, entry.contents + known.fieldBytes, entry.end, (child) => {
      if (!known.keep.has(child.type)) hide(walk.view, child)
    })
  })
}

/**
 * Checks the counts of the tables mp4box loops over: each count must fit in its box, and the samples
 * of all tracks together must stay within MAX_SAMPLES (a sample size table with one size for every
 * sample, and a fragment's run without per-sample fields, claim samples without bytes for them).
 */
function checkCounts(walk: Walk, box: BoxPlace) {
  if (box.type === 'stsz') countSamples(walk, box, 8, uint32(walk.view, box, 4) === 0 ? 4 : 0)
  else if (box.type === 'trun') countRunSamples(walk, box)
  else {
    const table = TABLES[box.type]
    if (table) checkEntries(walk.view, box, 4, table.entryBytes)
  }
}

/**
 * A fragment's run: after its count come an optional data offset (flag 0x1) and first sample's flags
 * (0x4), then for each sample four bytes for each field its flags name (duration 0x100, size 0x200,
 * flags 0x400, composition offset 0x800).
 */
function countRunSamples(walk: Walk, trun: BoxPlace) {
  const flags = uint32(walk.view, trun, 0)
  const fieldsBytes = [0x1, 0x4].filter((field) => flags & field).length * 4
  countSamples(walk, trun, 4, [0x100, 0x200, 0x400, 0x800].filter((field) => flags & field).length * 4, fieldsBytes)
}

function countSamples(walk: Walk, box: BoxPlace, countOffset: number, entryBytes: number, fieldsBytes = 0) {
  walk.samples += checkEntries(walk.view, box, countOffset, entryBytes, fieldsBytes)
  if (walk.samples > MAX_SAMPLES) throw new Refusal(`This video file looks damaged: it lists more frames than a ${VIDEO_LOOP_MAX_SECONDS}-second loop can hold. ${EXPORT_AS_MP4}`)
}

/** The entry count at `countOffset` in the box's contents: its entries, after `fieldsBytes` of other fields, must fit in the box. */
function checkEntries(view: DataView, box: BoxPlace, countOffset: number, entryBytes: number, fieldsBytes = 0) {
  const count = uint32(view, box, countOffset)
  const entriesEnd = box.contents + countOffset + 4 + fieldsBytes + count * entryBytes
  if (entriesEnd > box.end) throw new Refusal(NOT_MP4)
  return count
}

/** The 32-bit number at `offset` in the box's contents; a box too short to hold it is malformed. */
function uint32(view: DataView, box: BoxPlace, offset: number) {
  const at = box.contents + offset
  if (at + 4 > box.end) throw new Refusal(NOT_MP4)
  return view.getUint32(at)
}

/**
 * A box's header at `at`: 0 as its size means up to the end of its container, 1 that a 64-bit size
 * follows the type, and a 'uuid' box has a 16-byte extended type after it.
 */
function boxAt(view: DataView, at: number, containerEnd: number): BoxPlace {
  const type = fourccAt(view, at + 4)
  const declared = view.getUint32(at)
  const large = declared === 1
  if (large && at + 16 > view.byteLength) throw new Refusal(NOT_MP4)
  const size = declared === 0 ? containerEnd - at : large ? view.getUint32(at + 8) * 2 ** 32 + view.getUint32(at + 12) : declared
  const contents = at + (large ? 16 : 8) + (type === 'uuid' ? 16 : 0)
  if (at + size < contents) throw new Refusal(NOT_MP4)
  return { type, start: at, contents, end: at + size }
}

/** Renames a box 'free' in the copy, which mp4box skips by its size without reading its contents. */
function hide(view: DataView, box: BoxPlace) {
  view.setUint32(box.start + 4, 0x66726565)
}

function fourccAt(view: DataView, at: number) {
  return String.fromCharCode(view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), view.getUint8(at + 3))
}

/**
 * Parses the boxes left for mp4box. Undefined when they hold no movie, or when mp4box reports or
 * throws an error: the walk bounds the work, not every way the contents can be wrong.
 */
function readMovie(bytes: Uint8Array): ReadMovie | undefined {
  const file = createFile()
  let failed = false
  file.onError = () => {
    failed = true
  }
  try {
    file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(bytes.buffer, 0), true)
    file.flush()
    if (failed || !file.moov) return undefined
    const movie = file.getInfo()
    return { movie, complete: samplesEnd(file, movie) <= bytes.byteLength }
  } catch {
    return undefined
  }
}

/**
 * Where the last sample of any track ends. A file cut short keeps its header (the movie box comes
 * first) but loses the media it points to, and a browser would stop playing where the bytes end.
 */
function samplesEnd(file: ISOFile, movie: Movie) {
  let end = 0
  for (const track of movie.tracks) {
    for (const sample of file.getTrackSamplesInfo(track.id) ?? []) end = Math.max(end, sample.offset + sample.size)
  }
  return end
}

/**
 * The movie's length in milliseconds. A fragmented MP4 (as some screen recorders write) leaves the
 * movie header's duration at zero and states it in its fragments instead.
 */
function movieDurationMs(movie: Movie) {
  const fragments = movie.fragment_duration
  const ms = movie.duration > 0 ? (movie.duration * 1000) / movie.timescale : fragments ? (fragments.num * 1000) / fragments.den : 0
  return Number.isFinite(ms) ? Math.round(ms) : 0
}

/**
 * The width and height the video shows at. Phones store a portrait video as landscape frames with a
 * quarter turn in the track's matrix, and browsers apply the turn, so a turned video is as wide as its
 * frames are high.
 */
function displayedSize(track: Track) {
  const width = track.video?.width ?? 0
  const height = track.video?.height ?? 0
  return isQuarterTurn(track.matrix) ? { width: height, height: width } : { width, height }
}

/** A matrix that turns by 90 or 270 degrees: nothing on the diagonal, everything across it. */
function isQuarterTurn(matrix: Matrix) {
  return matrix[0] === 0 && matrix[4] === 0 && matrix[1] !== 0 && matrix[3] !== 0
}

/** Megabytes to a tenth, rounded up, so a file just over the limit never reads as exactly the limit. */
function megabytesText(bytes: number) {
  return `${Math.ceil((bytes / (1024 * 1024)) * 10) / 10} MB`
}

/** Seconds to a tenth, rounded away from the limit it broke, so the text never reads as the limit. */
function secondsText(durationMs: number, round: (value: number) => number) {
  const seconds = round(durationMs / 100) / 10
  return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`
}
