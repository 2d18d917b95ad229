import { href } from 'react-router'

/**
 * The sign-in page, which sends the visitor on to `redirectTo` (a path of this site) once signed in.
 * A module of its own, re-exported by links.ts: every page's error page links to it, and importing
 * links.ts there would send the whole of the site's addresses with every page's first script.
 */
export const loginLink = (redirectTo: string) => `${href('/login')}?${new URLSearchParams({ redirectTo })}`
