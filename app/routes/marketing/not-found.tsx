import { data, Link } from 'react-router'
import type { Route } from './+types/not-found'
import { PRODUCT_NAME } from '~/lib/seo'

export function loader() {
  return data(null, { status: 404 })
}

export const meta: Route.MetaFunction = () => [{ title: `Oops! Page not found | ${PRODUCT_NAME}` }, { name: 'robots', content: 'noindex' }]

export default function NotFound() {
  return (
    <section className="container-page py-24 text-center">
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">404</p>
      <h1 className="mt-2 text-4xl font-extrabold text-brand-900">Oops! Page not found</h1>
      <p className="mt-4 text-lg text-muted">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className="btn-primary mt-8">
        Return Home
      </Link>
    </section>
  )
}
