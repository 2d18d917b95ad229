import { data } from 'react-router'

/**
 * Which of a page's forms was sent: the `intent` field (a hidden field, or the name of the button
 * pressed) when it is one of the page's `intents`, and undefined when it is missing or unknown,
 * which each page answers as it always has. Typed, so that a `switch` on it only accepts the
 * page's own intents.
 */
export function formIntent<const Intent extends string>(formData: FormData, intents: readonly Intent[]): Intent | undefined {
  const sent = formData.get('intent')
  return intents.find((intent) => intent === sent)
}

/** The answer to a form a page does not have (a crafted request): 400, for a `switch`'s default. */
export function unknownForm(): never {
  throw data('Unknown form', { status: 400 })
}
