import { useLayoutEffect, useRef } from 'react'

/**
 * Markup a component writes as one string (through `dangerouslySetInnerHTML`) where React would
 * build dozens of elements on every render: text and attribute values are escaped as React escapes
 * them, so the page's HTML is the same byte for byte.
 */
const ESCAPED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' }

const SPECIAL = /[&<>"']/

/** Text or an attribute's value, escaped for HTML (most have nothing to escape: one test, no copy). */
export function escapeHtml(value: string | number): string {
  const text = String(value)
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (character) => ESCAPED[character]!) : text
}

/** An element's attributes in the order given, as React writes them: a value of undefined leaves its attribute out. */
export function attributes(values: Record<string, string | number | undefined>): string {
  let written = ''
  for (const [name, value] of Object.entries(values)) if (value !== undefined) written += ` ${name}="${escapeHtml(value)}"`
  return written
}

/**
 * Keeps the focus on a link or button of markup written anew: React keeps the elements it renders
 * (and their focus) from one render to the next, but markup is replaced whole, so the element that
 * had the focus (the one just chosen, by a click or Enter) would lose it to the page. The element is
 * known again by the attribute `key` (a date, an address); spread the result on the markup's container.
 */
export function useFocusKept<Container extends HTMLElement>(markup: string, key: string) {
  const ref = useRef<Container>(null)
  const focused = useRef<string | null>(null)
  useLayoutEffect(() => {
    const active = document.activeElement
    if (focused.current === null || (active && active !== document.body)) return
    const again = Array.from(ref.current?.querySelectorAll<HTMLElement>(`[${key}]`) ?? []).find((element) => element.getAttribute(key) === focused.current)
    again?.focus()
  }, [markup, key])
  return {
    ref,
    onFocus(event: React.FocusEvent<Container>) {
      focused.current = (event.target as HTMLElement).closest(`[${key}]`)?.getAttribute(key) ?? null
    },
    onBlur(event: React.FocusEvent<Container>) {
      // Focus that moved to another element was given up; markup replaced leaves it nowhere to go.
      if (event.relatedTarget) focused.current = null
    },
  }
}
