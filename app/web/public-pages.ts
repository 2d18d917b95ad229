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

/**
 * The analysis days away from the lab, and each one's page: in the sitemap. The list is rendered for
 * every visitor; a day's page is kept a few seconds at most (`ANALYSIS_DAY_PATH`).
 */
export const ANALYSIS_DAYS_PAGE = { path: href('/analysis-days'), priority: '0.8' } as const
export const ANALYSIS_DAY_PRIORITY = '0.6'

/** The public sample analysis: in the sitemap only while one is published. */
export const SAMPLE_ANALYSIS_PAGE = { path: href('/sample-analysis'), priority: '0.6' } as const

/**
 * The pages the same for every anonymous visitor, kept rendered by the page cache: the public pages
 * and the sample analysis (its "not found" too, until one is published).
 */
export const CACHED_PATHS = [...PUBLIC_PAGES.map((page) => page.path), SAMPLE_ANALYSIS_PAGE.path]

/**
 * A day's page as every anonymous visitor sees it, its seats as of a moment ago: kept a few seconds
 * by a page cache of its own and dropped at each change of seats or windows, so a release's rush of
 * parents reloading and refused is answered from memory. Its host's link (a query string) never is.
 */
export const ANALYSIS_DAY_PATH = /^\/analysis-days\/[1-9][0-9]{0,8}$/
/** How long a day's page is kept at most: a hold that runs out frees its seat without a change the database announces. */
export const ANALYSIS_DAY_KEPT_MS = 3000
