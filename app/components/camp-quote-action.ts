import { href } from 'react-router'

// Kept apart from the camp forms' components, so that the root route can read it without their code.

/** Where the camp forms post what is chosen, to be priced. */
export const CAMP_QUOTE_ACTION = href('/onboarding/quote')

/** A price asked as the parent chooses changes nothing the page's loaders read: they are not run again after it. */
export function skipRevalidationAfterQuote({ formAction, defaultShouldRevalidate }: { formAction?: string; defaultShouldRevalidate: boolean }) {
  return formAction === CAMP_QUOTE_ACTION ? false : defaultShouldRevalidate
}
