import type { Picture } from '~/modules/media/picture'
import { BrandPattern } from './brand-pattern'
import { ResponsivePicture } from './picture'

type TeamMemberCardProps = { name: string; role: string; bio: string; picture: Picture | null }

/** The portrait's size: 64 pixels beside the text on a phone, 96 above it from the sm breakpoint. */
const PORTRAIT_SIZE = 'h-16 w-16 shrink-0 sm:h-24 sm:w-24'

/**
 * One person of the lab's team: their photo from the media library once staff choose one, the
 * brand's pattern (drawn from their name, so each card differs) until then. Only people the lab has
 * named reach this card; a role or bio still to come is left out.
 */
export function TeamMemberCard({ name, role, bio, picture }: TeamMemberCardProps) {
  return (
    <div className="flex h-full items-start gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:flex-col sm:items-center sm:gap-0 sm:p-6 sm:text-center">
      {picture ? (
        <ResponsivePicture picture={picture} sizes="(min-width: 640px) 96px, 64px" className={`${PORTRAIT_SIZE} rounded-full`} imgClassName="h-full w-full object-cover" />
      ) : (
        <BrandPattern seed={name} shape="circle" className={PORTRAIT_SIZE} />
      )}
      <div>
        <h3 className="font-bold text-balance text-ink sm:mt-4">{name}</h3>
        {role && <p className="mt-1 text-sm font-semibold text-brand-700">{role}</p>}
        {bio && <p className="mt-2 text-sm leading-relaxed text-muted sm:mt-3">{bio}</p>}
      </div>
    </div>
  )
}
