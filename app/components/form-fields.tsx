import { useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { config as zodConfig, type z } from 'zod'

// The form controls, and the hook for forms that check their fields with a zod schema loaded with
// the page (the staff's forms); the pages families open load theirs later instead, with
// useLazyValidatedForm.
export * from './form-controls'

// Zod speeds up parsing with code it compiles through `new Function`; the browser's CSP forbids
// eval, so there it parses without (a CSP violation would be reported on every form page).
if (typeof document !== 'undefined') zodConfig({ jitless: true })

/**
 * Conform set up the same way for every form: the server's last result (errors, values) is shown
 * on first render, so the form works without JavaScript; with it, the same zod schema validates
 * each field when it loses focus and again as you type.
 */
export function useValidatedForm<Schema extends z.ZodObject>(
  schema: Schema,
  options: { id?: string; lastResult?: SubmissionResult<string[]> | null; defaultValue?: Record<string, string | undefined> } = {},
) {
  return useForm<z.input<Schema>, z.output<Schema>, string[]>({
    ...(options.id ? { id: options.id } : {}),
    lastResult: options.lastResult,
    defaultValue: options.defaultValue as never,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }) as never,
  })
}
