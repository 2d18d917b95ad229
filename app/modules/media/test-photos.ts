import sharp from 'sharp'

/** The GPS position a test photo carries (the lab's pool in Bangalore), as EXIF writes it. */
export const TEST_GPS = { GPSLatitudeRef: 'N', GPSLatitude: '12/1 58/1 4455/100', GPSLongitudeRef: 'E', GPSLongitude: '77/1 35/1 3371/100' }

/**
 * A photo as a phone takes it, made on the spot: stored landscape with EXIF orientation 6 (the
 * phone was held upright, so it shows as a portrait), red along its stored top edge (the upright
 * photo's right edge) and blue elsewhere, carrying the phone's make and a GPS position.
 */
export async function phonePhoto({ width = 1600, height = 1200, format = 'jpeg' as 'jpeg' | 'png' } = {}) {
  const band = await sharp({ create: { width, height: Math.round(height / 4), channels: 3, background: '#ff0000' } }).png().toBuffer()
  const image = sharp({ create: { width, height, channels: 3, background: '#0000ff' } })
    .composite([{ input: band, top: 0, left: 0 }])
    .withExif({ IFD0: { Make: 'LabTestPhone', Model: 'Serial 0042' }, IFD3: TEST_GPS })
    .withMetadata({ orientation: 6 })
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 85 }).toBuffer()
}

/** An image of `width` × `height` pixels that compresses to almost nothing (a 100-megapixel one is a few hundred kB). */
export function plainImage(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: '#1d4ed8' }, limitInputPixels: false }).jpeg({ quality: 50 }).toBuffer()
}

/** The first bytes of an iPhone's HEIC photo: an 'ftyp' box of brand 'heic'. */
export function heicHeader() {
  const bytes = Buffer.alloc(64)
  bytes.writeUInt32BE(24, 0)
  bytes.write('ftypheic', 4, 'latin1')
  bytes.write('mif1heic', 16, 'latin1')
  return bytes
}
