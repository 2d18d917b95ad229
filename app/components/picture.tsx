import type { Picture } from '~/modules/media/picture'

type ResponsivePictureProps = {
  picture: Picture
  /** The width the layout gives the image at each breakpoint, as `sizes` says it: the browser picks the file from it. */
  sizes: string
  /** The wrapper's classes: its size and shape (the image fills it). */
  className?: string
  /** The image's own classes, such as `object-cover`. */
  imgClassName?: string
  loading?: 'lazy' | 'eager'
  /** The page's largest image in the first screen: fetched at once and before the others. */
  priority?: boolean
}

/**
 * A photo of the media library: AVIF, then WebP, then JPEG, each at every width, so the browser
 * fetches the smallest file that is sharp where the layout puts it. The width and height hold its
 * place while it loads. Under it lies the tiny blurred copy, an image of its own (the pages allow no
 * inline style, so it cannot be a background), which the photo covers once it has loaded.
 */
export function ResponsivePicture({ picture, sizes, className, imgClassName, loading = 'lazy', priority = false }: ResponsivePictureProps) {
  return (
    <div className={classes('relative overflow-hidden', className)}>
      {picture.placeholder && <img src={picture.placeholder} alt="" aria-hidden="true" className="absolute inset-0 h-full w-full scale-110 object-cover blur-md" />}
      <picture>
        <source type="image/avif" srcSet={picture.avif} sizes={sizes} />
        <source type="image/webp" srcSet={picture.webp} sizes={sizes} />
        <img
          src={picture.src}
          srcSet={picture.jpeg}
          sizes={sizes}
          width={picture.width}
          height={picture.height}
          alt={picture.alt}
          decoding="async"
          loading={priority ? 'eager' : loading}
          fetchPriority={priority ? 'high' : undefined}
          className={classes('relative', imgClassName)}
        />
      </picture>
    </div>
  )
}

const classes = (own: string, given: string | undefined) => (given ? `${own} ${given}` : own)
