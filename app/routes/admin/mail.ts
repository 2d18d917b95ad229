import { href, redirect } from 'react-router'
import type { Route } from './+types/mail'

/** The mailbox became the messages page (e-mail and WhatsApp); bookmarks of the old address still work. */
export function loader({ request }: Route.LoaderArgs) {
  return redirect(`${href('/admin/messages')}${new URL(request.url).search}`, 301)
}
