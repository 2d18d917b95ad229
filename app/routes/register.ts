import { redirect } from 'react-router'
import type { Route } from './+types/register'

/** The spec names the page both /register and /registration; /registration is the one we keep. */
export function loader({ request }: Route.LoaderArgs) {
  return redirect(`/registration${new URL(request.url).search}`, 301)
}
