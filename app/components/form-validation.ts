import { parseWithZod } from '@conform-to/zod/v4'
import { config, type z } from 'zod'

// Checking a form's fields in the browser with its zod schema, the same parse the server's action
// makes. The pages families open load this module after they show (useLazyValidatedForm).

// Without the code zod compiles through `new Function`, which the browser's CSP forbids (as in
// form-fields.tsx, for the forms that load zod with the page).
if (typeof document !== 'undefined') config({ jitless: true })

export function validatorFor(schema: z.ZodType) {
  return (formData: FormData) => parseWithZod(formData, { schema })
}
