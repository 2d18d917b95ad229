import type { ReactNode } from 'react'
import { useHydrated } from '~/web/use-hydrated'

// What a form shows with JavaScript and without it, chosen by the stylesheet (the `scripting` media
// feature) instead of by whether React has taken over the page yet: the HTML is the same before and
// after hydration, so nothing moves as the page comes alive (a phone's form used to jump when the
// fields that do not apply disappeared). A browser too old for the feature shows the scripted form.

/** Words only a visitor without JavaScript reads: a hint saying when a field applies. */
export function WithoutScript({ children }: { children: ReactNode }) {
  return <span className="hidden noscript:inline">{children}</span>
}

/** Words a page running JavaScript shows where a visitor without it reads its `WithoutScript` counterpart. */
export function WithScript({ children }: { children: ReactNode }) {
  return <span className="noscript:hidden">{children}</span>
}

/** Words that differ with and without JavaScript, written once where they are the same. */
export function ScriptedWords({ scripted, without }: { scripted: string; without: string }) {
  if (scripted === without) return scripted
  return (
    <>
      <WithScript>{scripted}</WithScript>
      <WithoutScript>{without}</WithoutScript>
    </>
  )
}

/**
 * A part of a form that applies only under some answers: with JavaScript it shows while it applies
 * (or holds an error the visitor must see), and once the page is hydrated a part that does not apply
 * is disabled too, so that what was typed in it before the answer changed is not sent; without
 * JavaScript it always shows, its hint saying when it applies. `inGrid`: the part takes its place in
 * the parent's grid, as if it had no wrapper.
 */
export function WhenApplies({ applies, errors, inGrid = false, children }: { applies: boolean; errors?: string[]; inGrid?: boolean; children: ReactNode }) {
  const hydrated = useHydrated()
  const shown = applies || Boolean(errors?.length)
  const className = inGrid ? (shown ? 'contents' : 'hidden noscript:contents') : shown ? 'min-w-0' : 'hidden min-w-0 noscript:block'
  return (
    <fieldset disabled={hydrated && !shown} className={className}>
      {children}
    </fieldset>
  )
}
