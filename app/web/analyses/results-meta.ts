/**
 * The meta of every results page (the family's, and a coach's link): kept out of search engines,
 * and no referrer from its links, since the address may hold a coach's token. The description says
 * what the page is without naming the swimmer (a browser or a messaging app may show it in a preview).
 */
export const RESULTS_META = [
  { name: 'description', content: 'A swimmer’s analysis from the lab: the video, each figure against its reference levels, and what to work on.' },
  { name: 'robots', content: 'noindex' },
  { name: 'referrer', content: 'no-referrer' },
]
