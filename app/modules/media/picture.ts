import type { MediaVariant } from '~/db/schema'

/** Where a public media file is served: `/media/` and its content-hashed name. */
export function mediaPath(name: string) {
  return `/media/${name}`
}

/**
 * A photo as a page draws it: `<picture>` with an AVIF and a WebP source and a JPEG `<img>`,
 * each listing every width, so the browser fetches the smallest file that is sharp at the size
 * the layout gives it; the upright size (for the width and height attributes that keep the page
 * from moving as it loads); the alt text ('' for a decorative photo); and the tiny blurred copy.
 */
export type Picture = {
  alt: string
  width: number
  height: number
  placeholder: string | null
  avif: string
  webp: string
  jpeg: string
  /** The JPEG of about 640 pixels, for a browser that reads no srcset. */
  src: string
}

/** `srcset` of one format: each file's address and width, narrowest first. */
function srcSetOf(variants: MediaVariant[], format: MediaVariant['format']) {
  return variants
    .filter((variant) => variant.format === format)
    .sort((a, b) => a.width - b.width)
    .map((variant) => `${mediaPath(variant.name)} ${variant.width}w`)
    .join(', ')
}

export function pictureOf(item: { altText: string; decorative: boolean; width: number; height: number; placeholder: string | null; variants: MediaVariant[] }): Picture {
  const jpegs = item.variants.filter((variant) => variant.format === 'jpeg').sort((a, b) => a.width - b.width)
  const fallback = jpegs.find((variant) => variant.width >= 640) ?? jpegs.at(-1)
  if (!fallback) throw new Error('A ready photo has no JPEG')
  return {
    alt: item.decorative ? '' : item.altText,
    width: item.width,
    height: item.height,
    placeholder: item.placeholder,
    avif: srcSetOf(item.variants, 'avif'),
    webp: srcSetOf(item.variants, 'webp'),
    jpeg: srcSetOf(item.variants, 'jpeg'),
    src: mediaPath(fallback.name),
  }
}
