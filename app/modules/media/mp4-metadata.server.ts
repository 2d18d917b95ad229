/**
 * A video loop as the public site may serve it: the same file with its metadata boxes blanked. A
 * phone writes where a video was filmed into the movie's metadata (`moov/udta` '©xyz', `moov/meta`
 * 'com.apple.quicktime.location.ISO6709'), and editing apps add XMP in a 'uuid' box. Each such box
 * is turned into a 'free' box of the same size with its contents zeroed: players skip 'free' boxes,
 * and since nothing moves, the offsets that point into the media data stay true without rewriting
 * the file.
 */
const METADATA_BOXES = new Set(['udta', 'meta', 'uuid'])
/** The boxes that hold metadata boxes of their own: the file itself, the movie and each track. */
const CONTAINERS = new Set(['moov', 'trak'])

export function stripMp4Metadata(bytes: Uint8Array): Buffer {
  const copy = Buffer.from(bytes)
  blankIn(copy, 0, copy.length)
  return copy
}

function blankIn(file: Buffer, start: number, end: number) {
  let offset = start
  while (offset + 8 <= end) {
    const type = file.toString('latin1', offset + 4, offset + 8)
    let size = file.readUInt32BE(offset)
    let header = 8
    if (size === 1) {
      if (offset + 16 > end) return
      size = Number(file.readBigUInt64BE(offset + 8))
      header = 16
    } else if (size === 0) {
      size = end - offset
    }
    if (size < header || offset + size > end) return
    if (METADATA_BOXES.has(type)) {
      file.write('free', offset + 4, 'latin1')
      file.fill(0, offset + header, offset + size)
    } else if (CONTAINERS.has(type)) {
      blankIn(file, offset + header, offset + size)
    }
    offset += size
  }
}
