import { href } from 'react-router'

/** The public pages a search engine should know about, for the sitemap. */
export const PUBLIC_PAGES = [
  { path: href('/'), priority: '1.0' },
  { path: href('/services'), priority: '0.9' },
  { path: href('/pricing'), priority: '0.9' },
  { path: href('/how-it-works'), priority: '0.8' },
  { path: href('/about'), priority: '0.7' },
  { path: href('/contact'), priority: '0.7' },
  { path: href('/book'), priority: '0.8' },
  { path: href('/booking'), priority: '0.7' },
  { path: href('/terms'), priority: '0.3' },
  { path: href('/privacy-policy'), priority: '0.3' },
  { path: href('/refund'), priority: '0.3' },
] as const
