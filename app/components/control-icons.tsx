/** Small line icons of the controls: ticks in lists, the close cross, the FAQ's chevron. Drawn like line-icons.tsx. */
import { LineIcon } from './line-icons'

type IconProps = { className?: string }

export function CheckIcon({ className }: IconProps) {
  return (
    <LineIcon className={className}>
      <path d="M5 12.5l4.5 4.5L19 7.5" />
    </LineIcon>
  )
}

/** A cross: closes or dismisses what it sits on. */
export function CloseIcon({ className }: IconProps) {
  return (
    <LineIcon className={className}>
      <path d="M6 6l12 12M18 6L6 18" />
    </LineIcon>
  )
}

export function ChevronDownIcon({ className }: IconProps) {
  return (
    <LineIcon className={className}>
      <path d="M6 9l6 6 6-6" />
    </LineIcon>
  )
}
