import { config } from '~/config.server'
import { hasPublishedSample } from '~/modules/analyses/samples.server'
import { PUBLIC_PAGES, SAMPLE_ANALYSIS_PAGE } from '~/web/public-pages'

export async function loader() {
  const base = config().SITE_URL
  const pages = (await hasPublishedSample()) ? [...PUBLIC_PAGES, SAMPLE_ANALYSIS_PAGE] : PUBLIC_PAGES
  const urls = pages.map(
    (page) => `  <url><loc>${base}${page.path}</loc><priority>${page.priority}</priority></url>`,
  ).join('\n')
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } })
}
