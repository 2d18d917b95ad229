/**
 * Whether a request's Accept header takes AVIF images: it names image/avif (as every browser that
 * decodes AVIF does for images) without refusing it by a quality of 0. A wildcard (`image/*`,
 * `*\/*`) is not enough: older browsers send one for images they cannot decode.
 */
export function acceptsAvif(accept: string | null) {
  if (!accept) return false
  return accept.split(',').some((range) => {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase())
    if (type !== 'image/avif') return false
    const quality = parameters.find((parameter) => parameter.startsWith('q='))
    return !quality || Number(quality.slice(2)) > 0
  })
}
