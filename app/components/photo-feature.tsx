import type { ReactNode } from 'react'
import type { Picture } from '~/modules/media/picture'
import { BrandPattern } from './brand-pattern'
import { ResponsivePicture } from './picture'

/**
 * A section's picture: the lab's photo when staff have chosen one, the brand's abstract pattern
 * until then. A 4:3 box on every screen, so the text beside it never moves.
 */
export function SectionPicture({ picture, seed, sizes, className = '' }: { picture: Picture | null; seed: string; sizes: string; className?: string }) {
  const box = `aspect-[4/3] w-full overflow-hidden rounded-3xl ${className}`
  if (picture) return <ResponsivePicture picture={picture} sizes={sizes} className={box} imgClassName="h-full w-full object-cover" />
  return (
    <div className={box}>
      <BrandPattern seed={seed} shape="scene" className="h-full w-full" />
    </div>
  )
}

/**
 * One feature told beside its picture, the picture on alternate sides from the lg breakpoint and
 * above the text on a phone: a page that reads as a story rather than a grid of cards.
 */
export function PhotoFeature({ number, title, picture, seed, flip, link, children }: { number: string; title: string; picture: Picture | null; seed: string; flip: boolean; link: ReactNode; children: ReactNode }) {
  return (
    <li className="grid items-center gap-6 sm:gap-8 lg:grid-cols-2 lg:gap-16">
      <SectionPicture picture={picture} seed={seed} sizes="(min-width: 1152px) 528px, (min-width: 1024px) 45vw, 100vw" className={flip ? 'lg:order-last' : ''} />
      <div>
        <p aria-hidden="true" className="font-display text-5xl font-extrabold text-accent-600">
          {number}
        </p>
        <h3 className="mt-2 font-display text-2xl font-extrabold text-ink sm:text-3xl">{title}</h3>
        <p className="mt-4 text-lg leading-relaxed text-muted">{children}</p>
        <div className="mt-4">{link}</div>
      </div>
    </li>
  )
}
