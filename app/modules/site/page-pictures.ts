import type { MediaCollection, MediaShape } from '~/modules/media/limits'

/**
 * The places on the public pages that show one of the lab's photos (or, for the hero, its video
 * loop), as staff choose them under the settings. A place without one shows the site's own abstract
 * artwork in the brand's colours.
 */
export type PagePictureSlot = 'heroWide' | 'heroPhone' | 'heroLoop' | 'raceAnalysis' | 'biomechanics' | 'cameras' | 'story' | 'location'

type SlotRule = {
  label: string
  hint: string
  kind: 'photo' | 'loop'
  /** The library's collections a photo for this place is chosen from. */
  collections: MediaCollection[]
  /** The photo's orientation where the place crops it: wider than tall, or taller than wide. */
  shape?: MediaShape
}

const SCENES: MediaCollection[] = ['lab', 'pool', 'underwater']

export const PAGE_PICTURES: Record<PagePictureSlot, SlotRule> = {
  heroWide: {
    label: 'Home page, computers and tablets',
    hint: 'The first thing a visitor sees on a wider screen: a landscape photo, cropped to its middle; the heading sits over its left part, on a dark shade.',
    kind: 'photo',
    collections: SCENES,
    shape: 'landscape',
  },
  heroPhone: {
    label: 'Home page, phones',
    hint: 'The same place on a phone: a photo taller than wide, seen above the heading. Without it, phones show the middle of the photo for wider screens.',
    kind: 'photo',
    collections: SCENES,
    shape: 'upright',
  },
  heroLoop: {
    label: 'Home page video loop',
    hint: 'Plays without sound over the photo for wider screens, with a button to pause it; never on phones, nor for visitors who ask for less motion or to save data.',
    kind: 'loop',
    collections: ['loop'],
  },
  raceAnalysis: { label: 'Race Analysis (home page)', hint: 'Beside the race analysis service: a start, a turn, a race.', kind: 'photo', collections: SCENES },
  biomechanics: { label: 'Biomechanical Analysis (home page)', hint: 'Beside the biomechanical analysis service: a stroke filmed from the side or below.', kind: 'photo', collections: SCENES },
  cameras: { label: 'Underwater Camera System (home page)', hint: 'Beside the camera system: the cameras, or what they see.', kind: 'photo', collections: SCENES },
  story: { label: 'Why We Started (about page)', hint: 'Beside the lab’s story.', kind: 'photo', collections: SCENES },
  location: { label: 'Our Location (about page)', hint: 'Beside the address: the venue or its pool.', kind: 'photo', collections: ['venue', 'pool', 'lab'] },
}

export const PAGE_PICTURE_SLOTS = Object.keys(PAGE_PICTURES) as PagePictureSlot[]

/** What a place takes, as the media library checks it. */
export function mediaUseOf(slot: PagePictureSlot) {
  const { kind, collections, shape } = PAGE_PICTURES[slot]
  return { kind: kind === 'loop' ? ('video' as const) : ('image' as const), collections, shape }
}
