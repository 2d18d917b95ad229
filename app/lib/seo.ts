import type { MetaDescriptor } from 'react-router'

export const PRODUCT_NAME = 'Swimming Sport Science Lab'
export const PRODUCT_TAGLINE = "India's First Sport Science Lab for Swimming"

type RootData = { siteUrl: string } | undefined

/**
 * Title, description, canonical link and social cards for a page. The canonical URL is SITE_URL
 * plus the page's path, read from the root loader so every page agrees on the base.
 */
export function pageMeta(
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>,
  { title, description, path }: { title: string; description: string; path: string },
): MetaDescriptor[] {
  const root = matches.find((match) => match?.id === 'root')?.loaderData as RootData
  const siteUrl = root?.siteUrl ?? ''
  const canonical = `${siteUrl}${path}`
  const fullTitle = path === '/' ? `${PRODUCT_NAME} — ${PRODUCT_TAGLINE}` : `${title} | ${PRODUCT_NAME}`
  return [
    { title: fullTitle },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: canonical },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: PRODUCT_NAME },
    { property: 'og:title', content: fullTitle },
    { property: 'og:description', content: description },
    { property: 'og:url', content: canonical },
    { property: 'og:image', content: `${siteUrl}/og-image.png` },
    { property: 'og:image:width', content: '1200' },
    { property: 'og:image:height', content: '630' },
    { property: 'og:image:alt', content: `${PRODUCT_NAME}: ${PRODUCT_TAGLINE}` },
    { property: 'og:locale', content: 'en_IN' },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: fullTitle },
    { name: 'twitter:description', content: description },
    { name: 'twitter:image', content: `${siteUrl}/og-image.png` },
  ]
}
