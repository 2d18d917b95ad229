import { publicLoops, publicPictures } from '~/modules/media/media.server'
import type { Picture } from '~/modules/media/picture'
import type { PagePictureSlot } from './page-pictures'
import { getSiteSettings } from './site.server'

/** The home page's opening picture: the photo for wider screens, the one for phones, and the loop that may play over the first. */
export type HeroPictures = { wide: Picture | null; phone: Picture | null; loop: { src: string; width: number; height: number } | null }

/** The photos chosen for some places of the pages, each null until staff choose one that is ready and described. */
export async function pagePictures<Slot extends Exclude<PagePictureSlot, 'heroLoop'>>(slots: readonly Slot[]): Promise<Record<Slot, Picture | null>> {
  const [{ pagePictures: chosen }, pictures] = await Promise.all([getSiteSettings(), publicPictures()])
  return Object.fromEntries(slots.map((slot) => [slot, pictureAt(chosen[slot], pictures)])) as Record<Slot, Picture | null>
}

/**
 * The hero's pictures. The loop is left out for a visitor whose browser asks to save data
 * (`Save-Data: on`): its megabytes are not sent, not even as an address.
 */
export async function heroPictures(saveData: boolean): Promise<HeroPictures> {
  const [{ pagePictures: chosen }, pictures, loops] = await Promise.all([getSiteSettings(), publicPictures(), publicLoops()])
  const wide = pictureAt(chosen.heroWide, pictures)
  const loop = !saveData && wide && chosen.heroLoop ? loops.get(chosen.heroLoop) : undefined
  return { wide, phone: pictureAt(chosen.heroPhone, pictures), loop: loop ? { src: loop.src, width: loop.width, height: loop.height } : null }
}

const pictureAt = (id: number | undefined, pictures: Map<number, Picture>) => (id && pictures.get(id)) || null
