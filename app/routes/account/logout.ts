import { redirect } from 'react-router'
import type { Route } from './+types/logout'
import { endSession } from '~/web/auth.server'
import { redirectWithToast } from '~/web/toast.server'

/** Signing out is a POST (a link or a prefetch must never sign anyone out); it returns to /. */
export async function action({ request }: Route.ActionArgs) {
  return redirectWithToast('/', { type: 'info', title: 'You have been logged out.' }, { 'Set-Cookie': await endSession(request) })
}

export function loader() {
  return redirect('/')
}
