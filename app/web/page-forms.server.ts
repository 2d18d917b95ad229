import type { SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data } from 'react-router'
import type { z } from 'zod'
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
 * is about or above the form.
 */
export function submitForm<Which extends object, Schema extends z.ZodType, Answer>(
  formData: FormData,
  which: Which,
  schema: Schema,
  apply: (value: z.output<Schema>) => Promise<Answer>,
) {
  return parsedAndApplied(formData, schema, apply, (result): FormAnswer<Which> => ({ ...which, result }))
}

/** `submitForm` for a page of one form: what goes back to the form is its result alone. */
export function submitOnlyForm<Schema extends z.ZodType, Answer>(formData: FormData, schema: Schema, apply: (value: z.output<Schema>) => Promise<Answer>) {
  return parsedAndApplied(formData, schema, apply, (result) => result)
}

async function parsedAndApplied<Schema extends z.ZodType, Answer, Reply>(
  formData: FormData,
  schema: Schema,
  apply: (value: z.output<Schema>) => Promise<Answer>,
  reply: (result: SubmissionResult<string[]>) => Reply,
) {
  const submission = parseWithZod(formData, { schema })
  if (submission.status !== 'success') return data(reply(submission.reply()), { status: 400 })
  try {
    return await apply(submission.value)
  } catch (error) {
    const refusal = refusalOf(error)
    return data(reply(submission.reply(formErrorsOf(refusal))), { status: refusal.status })
  }
}
