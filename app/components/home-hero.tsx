import { useEffect, useRef, useState, type ReactNode } from 'react'
import type { Picture } from '~/modules/media/picture'
import type { HeroPictures } from '~/modules/site/page-pictures.server'
import { HeroArt } from './illustrations/hero-art'
import { WaveEdge } from './illustrations/wave-edge'

/** Below this width a phone shows the upright photo; from it on, the landscape one. */
const PHONE = '(max-width: 639px)'
/** The loop plays only where the landscape photo fills the hero behind the text. */
const WIDE_SCREEN = '(min-width: 64rem)'

/**
 * The home page's opening: the lab's own photo once staff choose one (an upright crop on phones,
 * a landscape one from the sm breakpoint, the heading on a dark shade so it reads on any photo),
 * the video loop over the landscape photo where it may play, and until then the site's abstract
 * artwork beside the heading.
 */
export function HomeHero({ pictures, children }: { pictures: HeroPictures; children: ReactNode }) {
  const { wide, phone, loop } = pictures
  if (!wide) {
    return (
      <section aria-labelledby="page-title" className="relative overflow-hidden bg-linear-to-br from-brand-900 via-brand-800 to-brand-700 text-white">
        <div className="container-page grid items-center gap-10 pt-12 pb-8 sm:pt-16 lg:grid-cols-[1.1fr_1fr] lg:gap-12 lg:pt-20 lg:pb-12">
          <div>{children}</div>
          <HeroArt className="mx-auto w-full max-w-md lg:max-w-none" />
        </div>
        <WaveEdge />
      </section>
    )
  }
  return (
    <section aria-labelledby="page-title" className="relative isolate overflow-hidden bg-brand-900 text-white" data-hero="photo">
      {/* The photo: a square box on a phone and a wide one on a tablet, above the text; behind the text from lg. */}
      <div className="relative aspect-square sm:aspect-[16/9] lg:absolute lg:inset-0 lg:aspect-auto">
        <HeroPicture wide={wide} phone={phone} />
        {loop && <HeroLoop loop={loop} />}
        {/* The shade the text stands on, at least 85 % of the dark brand colour behind every line, so the text keeps
            its contrast on the lightest photo: the photo's lower part on a phone and a tablet (the text starts at 64-85 %
            of its height), its left part from lg (the text reaches 52-59 % of its width). */}
        <div aria-hidden="true" className="absolute inset-0 bg-linear-to-b from-transparent from-25% via-brand-900/90 via-60% to-brand-900 lg:bg-linear-to-r lg:from-brand-900 lg:from-40% lg:via-brand-900/85 lg:via-60% lg:to-transparent lg:to-90%" />
      </div>
      <div className="container-page relative -mt-24 pb-10 sm:-mt-32 lg:mt-0 lg:flex lg:min-h-[38rem] lg:items-center lg:py-20">
        <div className="max-w-xl">{children}</div>
      </div>
      <WaveEdge className="relative text-white" />
    </section>
  )
}

/**
 * The art-directed photo: the upright one for phones, the landscape one otherwise, each as AVIF,
 * WebP or JPEG at every width. It is the page's largest image, fetched first; its box, not the
 * photo, sets its size, so nothing moves as it loads. An image has one alt text whichever source
 * the browser picks, so when the two photos are described differently, the description read out
 * is that of the photo on the screen: text for screen readers only, switched at the same width.
 */
function HeroPicture({ wide, phone }: { wide: Picture; phone: Picture | null }) {
  const described = phone !== null && phone.alt !== wide.alt
  return (
    <>
      {described && phone.alt && <span className="sr-only sm:hidden">{phone.alt}</span>}
      {described && wide.alt && <span className="sr-only hidden sm:block">{wide.alt}</span>}
      <picture>
        {phone && (
          <>
            <source media={PHONE} type="image/avif" srcSet={phone.avif} sizes="100vw" />
            <source media={PHONE} type="image/webp" srcSet={phone.webp} sizes="100vw" />
            <source media={PHONE} type="image/jpeg" srcSet={phone.jpeg} sizes="100vw" />
          </>
        )}
        <source type="image/avif" srcSet={wide.avif} sizes="100vw" />
        <source type="image/webp" srcSet={wide.webp} sizes="100vw" />
        <img
          src={wide.src}
          srcSet={wide.jpeg}
          sizes="100vw"
          width={wide.width}
          height={wide.height}
          alt={described ? '' : wide.alt}
          decoding="async"
          fetchPriority="high"
          className="absolute inset-0 h-full w-full object-cover"
        />
      </picture>
    </>
  )
}

/**
 * The silent loop over the landscape photo. The server sends none to a visitor saving data, and
 * without JavaScript it never starts. In the browser it starts only on a wide screen, without a
 * request for less motion or to save data (both read again if they change), and only once the
 * page has loaded, so it never competes with the page's own files; until it plays the photo shows.
 * Anything moving for more than five seconds can be paused: the button says what it will do.
 */
function HeroLoop({ loop }: { loop: NonNullable<HeroPictures['loop']> }) {
  const video = useRef<HTMLVideoElement>(null)
  const [state, setState] = useState<'still' | 'playing' | 'paused'>('still')

  useEffect(() => {
    const element = video.current
    if (!element) return
    const calm = window.matchMedia('(prefers-reduced-motion: reduce)')
    const wideScreen = window.matchMedia(WIDE_SCREEN)
    const savingData = () => (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true
    const follow = () => {
      if (calm.matches || !wideScreen.matches || savingData()) {
        element.pause()
        setState('still')
        return
      }
      if (!element.src) element.src = loop.src
      element.muted = true
      element.play().then(
        () => setState('playing'),
        () => setState('still'),
      )
    }
    const start = () => follow()
    if (document.readyState === 'complete') start()
    else window.addEventListener('load', start, { once: true })
    calm.addEventListener('change', follow)
    wideScreen.addEventListener('change', follow)
    return () => {
      window.removeEventListener('load', start)
      calm.removeEventListener('change', follow)
      wideScreen.removeEventListener('change', follow)
    }
  }, [loop.src])

  const toggle = () => {
    const element = video.current
    if (!element) return
    if (state === 'playing') {
      element.pause()
      setState('paused')
    } else {
      element.play().then(() => setState('playing'), () => setState('still'))
    }
  }

  return (
    <>
      <video
        ref={video}
        muted
        loop
        playsInline
        preload="none"
        width={loop.width}
        height={loop.height}
        aria-hidden="true"
        tabIndex={-1}
        data-hero-loop=""
        className={`absolute inset-0 h-full w-full object-cover transition-opacity duration-700 ${state === 'still' ? 'opacity-0' : 'opacity-100'}`}
      />
      {state !== 'still' && (
        <button
          type="button"
          onClick={toggle}
          className="absolute right-4 bottom-14 z-10 inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-full bg-brand-900/80 px-4 text-sm font-semibold text-white ring-1 ring-white/40 hover:bg-brand-900 focus-visible:outline-white"
        >
          {state === 'playing' ? <PauseIcon /> : <PlayIcon />}
          {state === 'playing' ? 'Pause the video' : 'Play the video'}
        </button>
      )}
    </>
  )
}

function PauseIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
      <rect x="5" y="4" width="3.5" height="12" rx="1" />
      <rect x="11.5" y="4" width="3.5" height="12" rx="1" />
    </svg>
  )
}

function PlayIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
      <path d="M6 4.5v11a1 1 0 0 0 1.5.86l9-5.5a1 1 0 0 0 0-1.72l-9-5.5A1 1 0 0 0 6 4.5Z" />
    </svg>
  )
}
