import type { ReactNode } from 'react'
import { createPath, useLocation, useNavigate } from 'react-router'

/**
 * The header's and footer's links to the site's own pages, rendered as plain anchors (as React
 * Router's Link renders them) and followed in the page by one handler on the header or footer
 * (`useFollowSiteLinks`): a Link component resolves its address and builds its own click handler on
 * every render, and the twenty-odd links of every page cost a sixth of its render.
 */
export function SiteLink({ to, className, children, ...aria }: { to: string; className: string; children: ReactNode; 'aria-label'?: string }) {
  return (
    <a className={className} {...aria} href={to} data-discover="true">
      {children}
    </a>
  )
}

/**
 * A site link that says when it is the page shown, as React Router's NavLink does: the address's path
 * is its own (letter case aside), or below it unless `end`.
 */
export function SiteNavLink({ to, end = false, className, children }: { to: string; end?: boolean; className: (state: { isActive: boolean }) => string; children: ReactNode }) {
  const pathname = useLocation().pathname.toLowerCase()
  const own = to.toLowerCase()
  const isActive = pathname === own || (!end && pathname.startsWith(`${own}/`))
  return (
    <a aria-current={isActive ? 'page' : undefined} className={className({ isActive })} href={to} data-discover="true">
      {children}
    </a>
  )
}

/**
 * The click handler, for the element holding site links, that follows them as React Router's Link
 * does: a plain left click navigates in the page (replacing the history entry when the link is to the
 * address shown); a click with a modifier key, or one a handler already took, is left to the browser.
 * `preventScrollReset` keeps the scroll position, as on a link with that prop.
 */
export function useFollowSiteLinks({ preventScrollReset = false }: { preventScrollReset?: boolean } = {}) {
  const navigate = useNavigate()
  const location = useLocation()
  return (event: React.MouseEvent<HTMLElement>) => {
    const link = linkOfPlainClick(event, 'a[data-discover]')
    if (!link) return
    const to = link.getAttribute('href')!
    event.preventDefault()
    void navigate(to, { preventScrollReset, replace: createPath(location) === to })
  }
}

/**
 * The link matching `selector` that a plain left click landed on, inside the element handling the
 * click: the one to follow in the page. Null when the browser should follow the click itself (a
 * modifier key, another button, a handler already took it, a link to a new tab or a download).
 */
export function linkOfPlainClick(event: React.MouseEvent<HTMLElement>, selector: string) {
  const link = (event.target as HTMLElement).closest<HTMLAnchorElement>(selector)
  if (!link || !event.currentTarget.contains(link) || link.target || link.hasAttribute('download')) return null
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return null
  return link
}
