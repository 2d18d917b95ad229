import type { Picture } from '~/modules/media/picture'
import { PortraitPlaceholder } from './icons'
import { ResponsivePicture } from './picture'

type TeamMemberCardProps = { name: string; role: string; bio: string; placeholder: boolean; position: number; picture: Picture | null }

/** The portrait's size: 64 pixels beside the text on a phone, 96 above it from the sm breakpoint. */
const PORTRAIT_SIZE = 'h-16 w-16 shrink-0 sm:h-24 sm:w-24'

/**
 * One person of the lab's team: their photo from the media library once staff choose one, the
 * neutral portrait until then. A member still marked as a placeholder is drawn as one (dashed)
 * rather than dressed up.
 */
export function TeamMemberCard({ name, role, bio, placeholder, position, picture }: TeamMemberCardProps) {
  const portraitLabel = placeholder ? `Photo of team member ${position}, to be supplied by the lab` : `Photo of ${name}, to be supplied by the lab`
  return (
    <div
      className={`flex h-full items-start gap-4 rounded-2xl border p-5 sm:flex-col sm:items-center sm:gap-0 sm:p-6 sm:text-center ${
        placeholder ? 'border-dashed border-slate-300 bg-slate-50' : 'border-slate-200 bg-white shadow-sm'
      }`}
      data-placeholder={placeholder || undefined}
    >
      {picture ? (
        <ResponsivePicture picture={picture} sizes="(min-width: 640px) 96px, 64px" className={`${PORTRAIT_SIZE} rounded-full`} imgClassName="h-full w-full object-cover" />
      ) : (
        <PortraitPlaceholder className={PORTRAIT_SIZE} label={portraitLabel} />
      )}
      <div>
        <h3 className="font-bold text-balance text-ink sm:mt-4">{name}</h3>
        <p className="mt-1 text-sm font-semibold text-brand-700">{role}</p>
        <p className="mt-2 text-sm leading-relaxed text-muted sm:mt-3">{bio}</p>
      </div>
    </div>
  )
}
