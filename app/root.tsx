import { useEffect, useState } from 'react'
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteLoaderData } from 'react-router'
import type { Route } from './+types/root'
import stylesheet from './root.css?url'
import displayFont from './assets/fonts/archivo-display.woff2?url'
import { skipRevalidationAfterQuote } from './components/camp-quote-action'
import { ErrorPage } from './components/error-page'
import { Footer, type FooterContact } from './components/footer'
import { Header } from './components/header'
import { CampBanner } from './components/camp-banner'
import { Toast } from './components/toast'
import { config } from './config.server'
import { getUser } from './web/auth.server'
import { showsBanner } from './web/banner/banner'
import { bannerClosed } from './web/banner/banner-closed.server'
import { bannerCamps, bannerCoach } from './web/banner/banner-view.server'
import { labToday } from './lib/lab-time'
import { logger } from './lib/logger.server'
import { takeToast } from './web/toast.server'
import { registrationOpen } from './modules/camps/camps.server'
import { publicPictures } from './modules/media/media.server'
import { getSiteSettings, listCamps } from './modules/site/site.server'
import { useNonce } from './web/nonce'

export async function loader({ request }: Route.LoaderArgs) {
  const [closed, settings, camps, pictures, user, { toast, headers }] = await Promise.all([
    bannerClosed(request),
    getSiteSettings().catch(logAndForget('Failed to fetch site settings')),
    listCamps().catch(logAndForget('Failed to fetch the camps')),
    // Without the photos the banner shows the coach's neutral portrait.
    publicPictures().catch(logAndForget('Failed to fetch the photos')),
    getUser(request).catch(logAndForget('Failed to read the session')),
    takeToast(request),
  ])
  const now = new Date()
  return data(
    {
      siteUrl: config().SITE_URL,
      // A visitor who closed the camp banner is sent none for the rest of the visit.
      banner: settings && camps && !closed ? { visible: settings.bannerVisible, ...bannerCoach(settings.coach, pictures), camps: bannerCamps(camps) } : null,
      // Only what the footer shows: the data goes out with every page (the rest of the settings are the pages' own).
      contact: settings && footerContact(settings),
      year: labToday(now).slice(0, 4),
      user: user ? { name: user.name, isAdmin: user.isAdmin } : null,
      campsOpen: camps?.some((camp) => registrationOpen(camp, now)) ?? false,
      testPayments: config().PAYMENT_GATEWAY === 'sandbox',
      toast,
    },
    { headers },
  )
}

function footerContact({ postalAddress, phone, phoneHours, supportEmail, socialLinks }: FooterContact) {
  return { postalAddress, phone, phoneHours, supportEmail, socialLinks }
}

function logAndForget(message: string) {
  return (error: unknown) => {
    logger().error({ err: error }, message)
    return null
  }
}

// The camp forms' live price is posted: the page's data stays as it is.
export const shouldRevalidate = skipRevalidationAfterQuote

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce()
  const root = useRouteLoaderData<typeof loader>('root')
  // Decided from the address rather than by the loader: the root's data is not loaded again on moving between pages.
  const { pathname } = useLocation()
  const showsCampBanner = Boolean(root?.banner) && showsBanner(pathname)
  const bannerVisible = useLiveBanner(root?.banner?.visible ?? false, showsCampBanner)
  return (
    <html lang="en-IN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#083344" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* The stylesheet is the only thing the first paint waits for: as a stylesheet with a precedence, React
            writes it at the top of the head, before the preloads of the scripts, so it is fetched first.
            It loads under style-src 'self' and needs no nonce. */}
        <link rel="stylesheet" href={stylesheet} precedence="default" />
        {/* The headings' typeface, fetched with the stylesheet rather than after it has been read (fonts are fetched in CORS mode). */}
        <link rel="preload" href={displayFont} as="font" type="font/woff2" crossOrigin="anonymous" />
        <Meta />
        <Links nonce="" />
      </head>
      <body className="flex min-h-dvh flex-col">
        <a href="#main" className="sr-only z-50 rounded bg-white px-4 py-2 font-semibold text-brand-800 focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
          Skip to content
        </a>
        {root?.banner && bannerVisible && showsCampBanner && <CampBanner camps={root.banner.camps} coach={root.banner.coach} coachPicture={root.banner.coachPicture} />}
        <Header user={root?.user ?? null} campsOpen={root?.campsOpen ?? false} />
        <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
          {root?.toast && <Toast key={root.toast.id} toast={root.toast} />}
          {children}
        </main>
        <Footer contact={root?.contact ?? null} year={root?.year ?? null} testPayments={root?.testPayments ?? false} signedIn={Boolean(root?.user)} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

/**
 * The banner's visibility as the server rendered it, then as the live event stream reports it,
 * so switching the banner in the database shows or hides it on every open page without a reload.
 * The stream is open only while it can change something (`live`: the page shows the banner and the
 * visitor has not closed it) and the page is visible: a phone's hidden tab holds no connection,
 * and on coming back the stream's first message brings the banner up to date.
 */
function useLiveBanner(initial: boolean, live: boolean) {
  const [visible, setVisible] = useState(initial)
  useEffect(() => setVisible(initial), [initial])
  useEffect(() => {
    if (!live) return
    let events: EventSource | null = null
    const open = () => {
      if (events || document.visibilityState !== 'visible') return
      events = new EventSource('/events')
      events.addEventListener('banner', (event) => {
        try {
          setVisible(Boolean(JSON.parse(event.data).visible))
        } catch {
          setVisible(false)
        }
      })
    }
    const close = () => {
      events?.close()
      events = null
    }
    const followVisibility = () => (document.visibilityState === 'visible' ? open() : close())
    open()
    document.addEventListener('visibilitychange', followVisibility)
    return () => {
      document.removeEventListener('visibilitychange', followVisibility)
      close()
    }
  }, [live])
  return visible
}

export default function App() {
  return <Outlet />
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
