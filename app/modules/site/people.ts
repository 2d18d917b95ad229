import { isPlaceholder } from './schemas'

/**
 * Whether the public pages may show a coach or team member: not while they are still the lab's
 * placeholder, nor while their name carries a bracketed note ("[Team member 1 — to be supplied by
 * the lab]"). The admin shows them all, placeholders marked as such.
 */
export function isNamed({ name, placeholder }: { name: string; placeholder: boolean }) {
  return !placeholder && !name.includes('[')
}

/** A named person's detail (a role, a bio, credentials) as the public pages show it: nothing while it is still a placeholder. */
export function suppliedText(value: string) {
  return isPlaceholder(value) ? '' : value
}
