import { Outlet, redirect } from 'react-router'
import type { Route } from './+types/marketing-layout'
import { getUser, homeFor } from '~/lib/auth.server'

/** The spec's rule for every marketing page: a signed-in user is sent on to booking. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getUser(request)
  if (user) throw redirect(homeFor(user))
  return null
}

export default function MarketingLayout() {
  return <Outlet />
}
