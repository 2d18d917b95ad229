// An image file rather than markup in the page's script: hashed, cached for a year, and no bytes
// for the phone to parse before the page responds. (Inlined as a data address it would break the CSP.)
import heroArt from './hero-art.svg?no-inline'

/**
 * The home page's artwork until the lab chooses its own photo: a pool seen from above in the
 * brand's colours (lanes, ropes, light on the water and a measured curve), decorative.
 */
export function HeroArt({ className }: { className?: string }) {
  return <img src={heroArt} alt="" width={480} height={360} className={className} />
}
