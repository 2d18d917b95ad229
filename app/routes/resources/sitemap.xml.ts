import { config } from '~/config.server'
import { PUBLIC_PAGES } from '~/web/public-pages'

export function loader() {
  const base = config().SITE_URL
  const urls = PUBLIC_PAGES.map(
    (page) => `  <url><loc>${base}${page.path}</loc><priority>${page.priority}</priority></url>`,
  ).join('\n')
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } })
}
