/** Feature icons of the marketing pages other than the home page (services, about, how it works), drawn like feature-icons.tsx. */
import { FeatureLineIcon } from './feature-icons'

type IconProps = { className?: string }

export function ChatFeedbackIcon(props: IconProps) {
  return (
    <FeatureLineIcon {...props}>
      <path d="M4 5.5h16a1.5 1.5 0 0 1 1.5 1.5v9a1.5 1.5 0 0 1-1.5 1.5h-9l-5 4v-4H4A1.5 1.5 0 0 1 2.5 16V7A1.5 1.5 0 0 1 4 5.5z" />
      <path d="M7 10h10M7 13.5h6" />
    </FeatureLineIcon>
  )
}

export function CoachWhistleIcon(props: IconProps) {
  return (
    <FeatureLineIcon {...props}>
      <path d="M10 10h10.5v3.5l-5 1.5a6 6 0 1 1-5.5-5z" />
      <circle cx="9" cy="15.5" r="1.6" />
      <path d="M10 10L7 4.5M13.5 10V7.5" />
    </FeatureLineIcon>
  )
}

export function FamilyIcon(props: IconProps) {
  return (
    <FeatureLineIcon {...props}>
      <circle cx="8" cy="6" r="2.5" />
      <circle cx="17" cy="9" r="2" />
      <path d="M3.5 20v-4.5a4.5 4.5 0 0 1 9 0V20M13.5 20v-3a3.5 3.5 0 0 1 7 0v3" />
    </FeatureLineIcon>
  )
}

/** Swim, bike, run: a bicycle with a wave beneath it. */
export function TriathlonIcon(props: IconProps) {
  return (
    <FeatureLineIcon {...props}>
      <circle cx="6" cy="14" r="3.5" />
      <circle cx="18" cy="14" r="3.5" />
      <path d="M6 14l4-6.5h5M12 14l3-6.5 3 6.5M10 7.5l2 6.5h-6" />
      <path d="M8.5 4.5h3" />
    </FeatureLineIcon>
  )
}

export function MedalIcon(props: IconProps) {
  return (
    <FeatureLineIcon {...props}>
      <path d="M7.5 2.5l3 6M16.5 2.5l-3 6" />
      <circle cx="12" cy="15" r="6" />
      <path d="M12 12v6M10.5 13l1.5-1" />
    </FeatureLineIcon>
  )
}

export function CalendarIcon(props: IconProps) {
  return (
    <FeatureLineIcon {...props}>
      <rect x="3.5" y="5" width="17" height="15.5" rx="2" />
      <path d="M3.5 10h17M8 2.5v4M16 2.5v4" />
      <path d="M8.5 14.5l2 2 4-4" />
    </FeatureLineIcon>
  )
}

export function TargetIcon(props: IconProps) {
  return (
    <FeatureLineIcon {...props}>
      <circle cx="12" cy="12" r="8.5" />
      <circle cx="12" cy="12" r="4.5" />
      <circle cx="12" cy="12" r="1" fill="currentColor" />
    </FeatureLineIcon>
  )
}
