import { useEffect, useRef, useState } from 'react'
import { Form, Link, NavLink, useLocation } from 'react-router'
import { PRODUCT_NAME } from '~/lib/seo'
import { LogoMark } from './icons'
import { CloseIcon } from './more-line-icons'

const MARKETING_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/services', label: 'Services' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/about', label: 'About Us' },
  { to: '/how-it-works', label: 'How It Works' },
  { to: '/contact', label: 'Contact Us' },
]

const SIGNED_IN_LINKS = [
  { to: '/book-slot', label: 'Book Analysis' },
  { to: '/my-bookings', label: 'My Bookings' },
  // Analyses: the published results of the account's swimmers.
  { to: '/analyses', label: 'My Analyses' },
  { to: '/swimmers', label: 'My Swimmers' },
]

const ADMIN_LINK = { to: '/admin', label: 'Admin' }

/** Past this many pixels of scrolling the header turns solid white with a shadow. */
const SCROLL_THRESHOLD = 50

type HeaderUser = { name: string; isAdmin: boolean }

export function Header({ user }: { user: HeaderUser | null }) {
  const scrolled = useScrolledPast(SCROLL_THRESHOLD)
  const menu = useRef<HTMLDetailsElement>(null)
  const location = useLocation()

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

  // Booking signs a guest in first, and brings them back to it.
  const bookHref = '/book-slot'
  const links = user ? [...SIGNED_IN_LINKS, ...(user.isAdmin ? [ADMIN_LINK] : [])] : MARKETING_LINKS
  return (
    <header
      data-scrolled={scrolled}
      className={`sticky top-0 z-40 transition-[background-color,box-shadow] duration-200 ${
        scrolled ? 'bg-white shadow-md' : 'bg-white/95 shadow-none'
      }`}
    >
      <div className="container-page flex h-16 items-center justify-between gap-4">
        <Link to="/" className="flex items-center gap-2 font-bold text-brand-900" aria-label={`${PRODUCT_NAME} — home`}>
          <LogoMark className="h-8 w-8 text-brand-700" />
          <span className="text-base leading-tight sm:text-lg">{PRODUCT_NAME}</span>
        </Link>

        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end className={navLinkClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        {user ? (
          <div className="hidden items-center gap-4 lg:flex">
            <p className="text-sm font-medium text-slate-700">Welcome, {user.name}</p>
            <LogoutButton />
          </div>
        ) : (
          <Link to={bookHref} className="btn-primary hidden lg:inline-flex">
            Book a Session
          </Link>
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
                  <NavLink to={link.to} end className={mobileLinkClass}>
                    {link.label}
                  </NavLink>
                </li>
              ))}
              <li className="py-3">
                {user ? (
                  <LogoutButton wide />
                ) : (
                  <Link to={bookHref} className="btn-primary w-full">
                    Book a Session
                  </Link>
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
    <Form method="post" action="/logout">
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
