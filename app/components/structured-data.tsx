import { useNonce } from '~/web/nonce'

/**
 * schema.org data for search engines, as JSON-LD. "<" is escaped so no text in the data can close
 * the script element early. The nonce exists only in the server render (the browser hides it),
 * hence the hydration warning is suppressed.
 */
export function StructuredData({ data }: { data: Record<string, unknown> }) {
  const nonce = useNonce()
  const json = JSON.stringify(data).replace(/</g, '\\u003c')
  return <script type="application/ld+json" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: json }} />
}
