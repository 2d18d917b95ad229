/**
 * The meta of every results page (the family's, and a coach's link): kept out of search engines,
 * and no referrer from its links, since the address may hold a coach's token.
 */
export const RESULTS_META = [
  { name: 'robots', content: 'noindex' },
  { name: 'referrer', content: 'no-referrer' },
]
