import type { ReactNode } from 'react'
import { LineIcon } from './line-icons'

type IconProps = { className?: string }

/**
 * Line icons of the marketing pages' features: the small line icon (line-icons.tsx) at feature
 * size unless the page sizes it. Always decorative: a visible label sits beside them.
 * These are the ones the home page draws; inner-page-feature-icons.tsx holds the rest, so the home
 * page's script does not carry icons it never shows.
 */
export function FeatureLineIcon({ className = 'h-7 w-7', children }: IconProps & { children: ReactNode }) {
  return <LineIcon className={className}>{children}</LineIcon>
}

export function StopwatchIcon(props: IconProps) {
  return (
    <FeatureLineIcon {...props}>
      <circle cx="12" cy="13.5" r="7.5" />
      <path d="M12 13.5V9.5M10 2.5h4M12 2.5V6M18.5 6.5l1.5-1.5" />
    </FeatureLineIcon>
  )
}

/** A bent arm with the angle at the elbow marked, as in a joint-angle measurement. */
export function JointAngleIcon(props: IconProps) {
  return (
    <FeatureLineIcon {...props}>
      <path d="M4 5l8 11 8-8" />
      <path d="M9.6 12.8a4 4 0 0 0 5.2.4" strokeDasharray="1.5 1.5" />
      <circle cx="4" cy="5" r="1.6" fill="currentColor" stroke="none" />
      <circle cx="12" cy="16" r="1.8" fill="currentColor" stroke="none" />
      <circle cx="20" cy="8" r="1.6" fill="currentColor" stroke="none" />
      <path d="M5 20.5h14" />
    </FeatureLineIcon>
  )
}

export function UnderwaterCameraIcon(props: IconProps) {
  return (
    <FeatureLineIcon {...props}>
      <rect x="3" y="6" width="13" height="9" rx="2" />
      <path d="M16 9l5-2.5v8L16 12" />
      <circle cx="9.5" cy="10.5" r="2" />
      <path d="M2 19.5c1.7 1.3 3.3 1.3 5 0s3.3-1.3 5 0 3.3 1.3 5 0 3.3-1.3 5 0" />
    </FeatureLineIcon>
  )
}

export function ReportIcon(props: IconProps) {
  return (
    <FeatureLineIcon {...props}>
      <path d="M14 2.5H6.5a2 2 0 0 0-2 2v15a2 2 0 0 0 2 2h11a2 2 0 0 0 2-2V8z" />
      <path d="M14 2.5V8h5.5" />
      <path d="M8.5 17.5v-3M12 17.5v-5.5M15.5 17.5v-2" />
    </FeatureLineIcon>
  )
}

/** A map pin with a star: the first lab of its kind, here in India. */
export function FirstInIndiaIcon(props: IconProps) {
  return (
    <FeatureLineIcon {...props}>
      <path d="M12 21.5s-7-6.2-7-12a7 7 0 0 1 14 0c0 5.8-7 12-7 12z" />
      <path d="M12 6l1.1 2.3 2.4.3-1.8 1.6.5 2.4-2.2-1.2-2.2 1.2.5-2.4-1.8-1.6 2.4-.3z" />
    </FeatureLineIcon>
  )
}

export function DataChartIcon(props: IconProps) {
  return (
    <FeatureLineIcon {...props}>
      <path d="M3.5 3.5v17h17" />
      <path d="M7 15l4-4.5 3 3 5.5-6.5" />
      <circle cx="11" cy="10.5" r="1" fill="currentColor" />
      <circle cx="14" cy="13.5" r="1" fill="currentColor" />
      <circle cx="19.5" cy="7" r="1" fill="currentColor" />
    </FeatureLineIcon>
  )
}

export function ShieldCheckIcon(props: IconProps) {
  return (
    <FeatureLineIcon {...props}>
      <path d="M12 2.5l7.5 3v6c0 4.6-3.2 8.6-7.5 10-4.3-1.4-7.5-5.4-7.5-10v-6z" />
      <path d="M8.5 12l2.5 2.5 4.5-5" />
    </FeatureLineIcon>
  )
}
