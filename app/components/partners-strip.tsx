import { ResponsivePicture } from '~/components/picture'
import { SectionHeading } from '~/components/section-heading'
import type { Picture } from '~/modules/media/picture'

export type StripPartner = { id: number; name: string; link: string | null; picture: Picture | null }

/** A logo is laid out 160 pixels wide (the browser fetches the 160 or, on a sharper screen, the 320 file). */
const LOGO_SIZES = '160px'

/**
 * The lab's partners and the venues it works at, as staff list them: each logo (its name in text
 * when the library cannot show the logo yet), linked to the partner's site when it has one. Nothing
 * when there are none.
 */
export function PartnersStrip({ partners }: { partners: StripPartner[] }) {
  if (partners.length === 0) return null
  return (
    <section aria-labelledby="partners-heading" className="py-16 sm:py-20">
      <div className="container-page">
        <SectionHeading id="partners-heading" eyebrow="Who we work with" title="Partners and venues" align="center">
          The organisations and venues the lab works with.
        </SectionHeading>
        <ul className="mt-10 flex flex-wrap items-center justify-center gap-8">
          {partners.map((partner) => (
            <li key={partner.id}>
              {partner.link ? (
                <a href={partner.link} rel="noopener noreferrer" className="block rounded-lg p-2 hover:bg-brand-50">
                  <Logo partner={partner} />
                  <span className="sr-only"> (opens the website of {partner.name})</span>
                </a>
              ) : (
                <div className="p-2">
                  <Logo partner={partner} />
                </div>
              )}
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}

function Logo({ partner }: { partner: StripPartner }) {
  if (!partner.picture) return <span className="flex h-20 w-40 items-center justify-center text-center font-semibold text-ink">{partner.name}</span>
  return <ResponsivePicture picture={partner.picture} sizes={LOGO_SIZES} className="h-20 w-40" imgClassName="h-full w-full object-contain" />
}
