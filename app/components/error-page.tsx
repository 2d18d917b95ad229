import { href, isRouteErrorResponse, Link } from 'react-router'
import { loginLink } from '~/lib/login-link'

const ERROR_TEXTS: Record<number, { title: string; message: string }> = {
  400: { title: 'Bad request', message: 'The form sent could not be read. Please go back, check it and try again.' },
  403: { title: 'Access denied', message: 'You do not have permission to view this page.' },
  404: { title: 'Oops! Page not found', message: 'The page you are looking for does not exist or has moved.' },
  410: {
    title: 'This link has expired',
    message: 'Private links to a booking made without an account stop working some time after the session. To see your booking, its receipt and its report, sign in, or create an account, with the e-mail address you booked with: the booking is listed in My Bookings.',
  },
  413: { title: 'Too large', message: 'What was sent is larger than this site accepts. Please go back and send less.' },
  415: { title: 'Please send the form from its page', message: 'This address only accepts its own form. Please go back to the page and submit it there.' },
  429: { title: 'Too many attempts', message: 'Please wait a few minutes and try again.' },
  500: { title: 'Something went wrong', message: 'Please try again in a moment. If it keeps happening, contact us.' },
  503: { title: 'Service temporarily unavailable', message: 'The site cannot reach its booking system for a moment. Please try again in a minute.' },
}

/**
 * What a page that failed says, for the status it failed with (a thrown response's, 500 for
 * anything else), and the way on. `className` places it: on its own, or inside a section's frame.
 */
export function ErrorPage({ error, className = 'container-page py-24' }: { error: unknown; className?: string }) {
  const status = isRouteErrorResponse(error) ? error.status : 500
  const { title, message } = ERROR_TEXTS[status] ?? ERROR_TEXTS[500]!
  return (
    <section className={`${className} text-center`}>
      <title>{title}</title>
      <h1 className="text-4xl font-extrabold text-brand-900">{title}</h1>
      <p className="mx-auto mt-4 max-w-2xl text-lg text-muted">{message}</p>
      {status === 410 ? (
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to={loginLink(href('/my-bookings'))} className="btn-primary">
            Sign in
          </Link>
          <Link to={href('/registration')} className="btn-secondary">
            Create an account
          </Link>
        </div>
      ) : (
        <Link to="/" className="btn-primary mt-8">
          Return Home
        </Link>
      )}
    </section>
  )
}
