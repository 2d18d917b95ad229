/**
 * What a file is, by its first bytes rather than its name or the type the browser claimed: a clip
 * must be a video the lab's pages can play, a poster an image.
 */

/** Bytes needed to recognise any of the kinds below. */
export const SIGNATURE_BYTES = 16

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) => signature.every((byte, index) => bytes[at + index] === byte)
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0))

/**
 * An MP4 or QuickTime movie starts with an 'ftyp' box (its size, then the four letters at offset
 * 4; 'qt  ' as the brand for QuickTime); a WebM file with EBML's magic number 1A 45 DF A3.
 */
export function videoTypeOf(bytes: Uint8Array): 'video/mp4' | 'video/quicktime' | 'video/webm' | null {
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm'
  if (startsWith(bytes, ascii('ftyp'), 4)) return startsWith(bytes, ascii('qt  '), 8) ? 'video/quicktime' : 'video/mp4'
  return null
}

/** A JPEG (FF D8 FF), PNG (its eight-byte signature) or WebP (RIFF….WEBP) image. */
export function imageTypeOf(bytes: Uint8Array): 'image/jpeg' | 'image/png' | 'image/webp' | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp'
  return null
}
