/** Small line icons of the contact details and the lab (contact and about pages), drawn like line-icons.tsx. */
import { LineIcon } from './line-icons'

type IconProps = { className?: string }

export function MapPinIcon({ className }: IconProps) {
  return (
    <LineIcon className={className}>
      <path d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z" />
      <circle cx="12" cy="9.5" r="2.5" />
    </LineIcon>
  )
}

export function PhoneIcon({ className }: IconProps) {
  return (
    <LineIcon className={className}>
      <path d="M5 4h3.5l1.7 4.3-2.2 1.4a11 11 0 0 0 6.3 6.3l1.4-2.2L20 15.5V19a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2z" />
    </LineIcon>
  )
}

export function MailIcon({ className }: IconProps) {
  return (
    <LineIcon className={className}>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M3.5 6.5l8.5 6.5 8.5-6.5" />
    </LineIcon>
  )
}

export function GlobeIcon({ className }: IconProps) {
  return (
    <LineIcon className={className}>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" />
    </LineIcon>
  )
}

/** Research: a flask. */
export function FlaskIcon({ className }: IconProps) {
  return (
    <LineIcon className={className}>
      <path d="M9 3h6M10 3v6l-5.5 9.5A1.7 1.7 0 0 0 6 21h12a1.7 1.7 0 0 0 1.5-2.5L14 9V3" />
      <path d="M7.5 15h9" />
    </LineIcon>
  )
}

/** Training programmes: a clipboard with a rising line. */
export function ProgramIcon({ className }: IconProps) {
  return (
    <LineIcon className={className}>
      <rect x="5" y="4" width="14" height="17" rx="2" />
      <path d="M9 4V3h6v1" />
      <path d="M8.5 16l2.5-3 2 2 2.5-4" />
    </LineIcon>
  )
}
