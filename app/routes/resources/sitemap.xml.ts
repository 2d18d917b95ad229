import { config } from '~/config.server'
import { analysisDayLink } from '~/lib/links'
import { hasPublishedSample } from '~/modules/analyses/samples.server'
import { publicAnalysisDays } from '~/modules/booking/analysis-days.server'
import { ANALYSIS_DAY_PRIORITY, ANALYSIS_DAYS_PAGE, PUBLIC_PAGES, SAMPLE_ANALYSIS_PAGE } from '~/web/public-pages'

export async function loader() {
  const base = config().SITE_URL
  const [sample, days] = await Promise.all([hasPublishedSample(), publicAnalysisDays()])
  const pages = [
    ...PUBLIC_PAGES,
    ...(sample ? [SAMPLE_ANALYSIS_PAGE] : []),
    ANALYSIS_DAYS_PAGE,
    // Each analysis day to come, as its public page (never the host's link).
    ...days.map((day) => ({ path: analysisDayLink(day.id), priority: ANALYSIS_DAY_PRIORITY })),
  ]
  const urls = pages.map(
    (page) => `  <url><loc>${base}${page.path}</loc><priority>${page.priority}</priority></url>`,
  ).join('\n')
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } })
}
