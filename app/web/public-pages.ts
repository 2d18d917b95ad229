/** The public pages a search engine should know about, for the sitemap. */
export const PUBLIC_PAGES = [
  { path: '/', priority: '1.0' },
  { path: '/services', priority: '0.9' },
  { path: '/pricing', priority: '0.9' },
  { path: '/how-it-works', priority: '0.8' },
  { path: '/about', priority: '0.7' },
  { path: '/contact', priority: '0.7' },
  { path: '/book', priority: '0.8' },
  { path: '/booking', priority: '0.7' },
  { path: '/terms', priority: '0.3' },
  { path: '/privacy-policy', priority: '0.3' },
  { path: '/refund', priority: '0.3' },
] as const
