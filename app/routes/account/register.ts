import { href, redirect } from 'react-router'
import type { Route } from './+types/register'

/** The sign-up page answers at /register too, sending visitors on to /registration, the address we keep. */
export function loader({ request }: Route.LoaderArgs) {
  return redirect(`${href('/registration')}${new URL(request.url).search}`, 301)
}
