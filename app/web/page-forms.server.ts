import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import { z } from 'zod'
import type { DomainError } from '~/lib/domain-error'
import { formIntent, unknownForm } from '~/web/intent'
import { formErrorsOf, refusalOf } from '~/web/refusals.server'

/**
 * A page with several forms: each form sends its `intent`, and the page's action answers the one
 * that was sent. A form sent with mistakes, or refused by the rules, comes back to that form only:
 * its answer says which form it is (`which`, such as `{ intent, target }` or `{ form }`), so the
 * messages show next to that form's fields and nowhere else.
 */

/** The answer to one of the page's forms sent with mistakes or refused: which form, and its messages. */
export type FormAnswer<Which extends object> = Which & { result: SubmissionResult<string[]> }

/** The toast after a save that changed nothing. */
export const NOTHING_TO_SAVE = { type: 'info', title: 'Nothing to save', description: 'Those were already the values.' } as const

/**
 * Runs the handler of the form that was sent, by its `intent`: one handler for each of the page's
 * forms. A form the page does not have (a crafted request) is answered 400.
 */
export function dispatchForm<Handlers extends Record<string, () => Promise<unknown>>>(formData: FormData, handlers: Handlers): ReturnType<Handlers[keyof Handlers]> {
  const intent = formIntent(formData, Object.keys(handlers))
  if (intent === undefined) return unknownForm()
  return handlers[intent]!() as ReturnType<Handlers[keyof Handlers]>
}

/**
 * Parses the form with its schema and applies the value. The schema's messages go back to the form
 * with 400; a refusal of the rules goes back to it with the status of its kind, next to the field it
 * is about or above the form, with what `alsoTell` adds for it (the bookings in the way, say).
 * `apply` is given the form's values as its answer too, for a form answered on its own page without
 * saving (a check before saving shows the form again as it was sent).
 */
export function submitForm<Which extends object, Schema extends z.ZodType, Answer, Told extends object = object>(
  formData: FormData,
  which: Which,
  schema: Schema,
  apply: (value: z.output<Schema>, sent: SubmissionResult<string[]>) => Promise<Answer>,
  alsoTell?: (refusal: DomainError) => Told,
) {
  return parsedAndApplied(formData, schema, apply, (result, refusal): FormAnswer<Which> & Partial<Told> => ({ ...which, result, ...(refusal && alsoTell?.(refusal)) }))
}

const NO_FIELDS = z.object({})

/** `submitForm` for a form that is only its button (close, retire, remove): a refusal comes back to it, above it. */
export function submitButton<Which extends object, Answer>(formData: FormData, which: Which, apply: () => Promise<Answer>) {
  return submitForm(formData, which, NO_FIELDS, () => apply())
}

/** `submitForm` for a page of one form: what goes back to the form is its result alone. */
export function submitOnlyForm<Schema extends z.ZodType, Answer>(formData: FormData, schema: Schema, apply: (value: z.output<Schema>) => Promise<Answer>) {
  return parsedAndApplied(formData, schema, apply, (result) => result)
}

async function parsedAndApplied<Schema extends z.ZodType, Answer, Reply>(
  formData: FormData,
  schema: Schema,
  apply: (value: z.output<Schema>, sent: SubmissionResult<string[]>) => Promise<Answer>,
  reply: (result: SubmissionResult<string[]>, refusal?: DomainError) => Reply,
) {
  const submission = parseWithZod(formData, { schema })
  if (submission.status !== 'success') return data(reply(submission.reply()), { status: 400 })
  try {
    return await apply(submission.value, submission.reply())
  } catch (error) {
    const refusal = refusalOf(error)
    return data(reply(submission.reply(formErrorsOf(refusal)), refusal.error), { status: refusal.status })
  }
}
