import { useEffect, useRef, useState } from 'react'
import { Form, href, useLocation } from 'react-router'
import { PRODUCT_NAME } from '~/lib/seo'
import { LogoMark } from './icons'
import { CloseIcon } from './control-icons'
import { SiteLink, SiteNavLink, useFollowSiteLinks } from './site-links'

type NavItem = { to: string; label: string }

const HOME_LINK = { to: '/', label: 'Home' }

/** The public pages; staff reach them too (the home page sends a signed-in visitor on). */
const SITE_LINKS = [
  { to: href('/services'), label: 'Services' },
  { to: href('/pricing'), label: 'Pricing' },
  { to: href('/about'), label: 'About Us' },
  { to: href('/how-it-works'), label: 'How It Works' },
  { to: href('/contact'), label: 'Contact Us' },
]

const CUSTOMER_LINKS = [
  { to: href('/book'), label: 'Book Analysis' },
  { to: href('/my-bookings'), label: 'My Bookings' },
  // Analyses: the published results of the account's swimmers.
  { to: href('/analyses'), label: 'My Analyses' },
  { to: href('/swimmers'), label: 'My Swimmers' },
]

const ADMIN_LINK = { to: href('/admin'), label: 'Admin' }

/** Listed while a camp is open for registration, for everyone. */
const CAMPS_LINK = { to: href('/onboarding'), label: 'Camps' }

/**
 * What the header lists: the public pages for a visitor, the account's pages for a customer, and
 * for staff the console with the public pages (never a customer's own pages, which staff have none of).
 */
function navItems(user: HeaderUser | null, campsOpen: boolean): NavItem[] {
  const camps = campsOpen ? [CAMPS_LINK] : []
  if (!user) return [HOME_LINK, ...SITE_LINKS.slice(0, 2), ...camps, ...SITE_LINKS.slice(2)]
  if (user.isAdmin) return [ADMIN_LINK, ...SITE_LINKS.slice(0, 2), ...camps, ...SITE_LINKS.slice(2)]
  return [...CUSTOMER_LINKS, ...camps]
}

/** Past this many pixels of scrolling the header turns solid white with a shadow. */
const SCROLL_THRESHOLD = 50

type HeaderUser = { name: string; isAdmin: boolean }

export function Header({ user, campsOpen }: { user: HeaderUser | null; campsOpen: boolean }) {
  const scrolled = useScrolledPast(SCROLL_THRESHOLD)
  const menu = useRef<HTMLDetailsElement>(null)
  const location = useLocation()
  const followLink = useFollowSiteLinks()

  // A client-side navigation from the mobile menu closes it, as a full page load would; a menu
  // opened before the page's scripts ran stays open (the first run of this effect is no navigation).
  const menuPath = useRef(location.pathname)
  useEffect(() => {
    if (menuPath.current === location.pathname) return
    menuPath.current = location.pathname
    if (menu.current) menu.current.open = false
  }, [location.pathname])

  // Analyses: a coach's link shows the results and the lab's name only, whoever's browser opens it.
  if (isSharedResults(location.pathname)) return <PlainHeader />

  const links = navItems(user, campsOpen)
  return (
    <header
      onClick={followLink}
      data-scrolled={scrolled}
      className={`sticky top-0 z-40 transition-[background-color,box-shadow] duration-200 print-alone:hidden ${
        scrolled ? 'bg-white shadow-md' : 'bg-white/95 shadow-none'
      }`}
    >
      <div className="container-page flex h-16 items-center justify-between gap-4">
        <SiteLink to={href('/')} className="flex items-center gap-2 font-bold text-brand-900" aria-label={`${PRODUCT_NAME} — home`}>
          <LogoMark className="h-8 w-8 text-brand-700" />
          <span className="text-base leading-tight sm:text-lg">{PRODUCT_NAME}</span>
        </SiteLink>

        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-0.5 whitespace-nowrap">
            {links.map((link) => (
              <li key={link.to}>
                <SiteNavLink to={link.to} end className={navLinkClass}>
                  {link.label}
                </SiteNavLink>
              </li>
            ))}
          </ul>
        </nav>
        {user ? (
          <div className="hidden items-center gap-4 whitespace-nowrap lg:flex">
            <p className="max-w-40 truncate text-sm font-medium text-slate-700">Welcome, {user.name}</p>
            <LogoutButton />
          </div>
        ) : (
          <div className="hidden items-center gap-2 whitespace-nowrap lg:flex">
            <SiteNavLink to={href('/login')} className={navLinkClass}>
              Sign in
            </SiteNavLink>
            <SiteLink to={href('/book')} className="btn-primary">
              Book a Session
            </SiteLink>
          </div>
        )}

        <details ref={menu} className="group lg:hidden">
          <summary
            className="flex min-h-11 min-w-11 cursor-pointer items-center justify-center rounded-lg text-brand-900 hover:bg-brand-50"
            aria-label="Menu"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6 group-open:hidden" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
            </svg>
            <CloseIcon className="hidden h-6 w-6 group-open:block" />
          </summary>
          <nav aria-label="Mobile" className="absolute inset-x-0 top-16 border-t border-slate-200 bg-white shadow-lg">
            <ul className="container-page flex flex-col py-2">
              {user && <li className="px-3 pt-3 pb-1 text-sm font-medium text-slate-700">Welcome, {user.name}</li>}
              {links.map((link) => (
                <li key={link.to}>
                  <SiteNavLink to={link.to} end className={mobileLinkClass}>
                    {link.label}
                  </SiteNavLink>
                </li>
              ))}
              {!user && (
                <li>
                  <SiteNavLink to={href('/login')} className={mobileLinkClass}>
                    Sign in
                  </SiteNavLink>
                </li>
              )}
              <li className="py-3">
                {user ? (
                  <LogoutButton wide />
                ) : (
                  <SiteLink to={href('/book')} className="btn-primary w-full">
                    Book a Session
                  </SiteLink>
                )}
              </li>
            </ul>
          </nav>
        </details>
      </div>
    </header>
  )
}

// Analyses: the pages of a coach's link (/shared/<token>…) and their plain header.
const isSharedResults = (pathname: string) => /^\/shared\//i.test(pathname)

function PlainHeader() {
  return (
    <header className="sticky top-0 z-40 bg-white shadow-sm">
      <div className="container-page flex h-16 items-center">
        <p className="flex items-center gap-2 font-bold text-brand-900">
          <LogoMark className="h-8 w-8 text-brand-700" />
          <span className="text-base leading-tight sm:text-lg">{PRODUCT_NAME}</span>
        </p>
      </div>
    </header>
  )
}

/** Signing out changes state, so it is a form that POSTs, never a link. */
function LogoutButton({ wide = false }: { wide?: boolean }) {
  return (
    <Form method="post" action={href('/logout')}>
      <button type="submit" className={`btn-secondary ${wide ? 'w-full' : 'min-h-10 px-4 py-2'}`}>
        Logout
      </button>
    </Form>
  )
}

function navLinkClass({ isActive }: { isActive: boolean }) {
  return `rounded-md px-3 py-2 text-sm font-medium transition-colors ${
    isActive ? 'bg-brand-50 text-brand-800 underline decoration-2 underline-offset-8' : 'text-slate-700 hover:bg-slate-100 hover:text-brand-800'
  }`
}

function mobileLinkClass({ isActive }: { isActive: boolean }) {
  return `block rounded-md px-3 py-3 text-base font-medium ${isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100'}`
}

function useScrolledPast(threshold: number) {
  const [scrolled, setScrolled] = useState(false)
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > threshold)
    update()
    window.addEventListener('scroll', update, { passive: true })
    return () => window.removeEventListener('scroll', update)
  }, [threshold])
  return scrolled
}
