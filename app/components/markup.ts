/**
 * Markup a component writes as one string (through `dangerouslySetInnerHTML`) where React would
 * build dozens of elements on every render: text and attribute values are escaped as React escapes
 * them, so the page's HTML is the same byte for byte.
 */
const ESCAPED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' }

/** Text or an attribute's value, escaped for HTML. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (character) => ESCAPED[character]!)
}

/** An element's attributes in the order given, as React writes them: a value of undefined leaves its attribute out. */
export function attributes(values: Record<string, string | number | undefined>): string {
  let written = ''
  for (const [name, value] of Object.entries(values)) if (value !== undefined) written += ` ${name}="${escapeHtml(value)}"`
  return written
}
