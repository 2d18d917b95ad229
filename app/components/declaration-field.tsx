import { getInputProps, type FieldMetadata } from '@conform-to/react'
import type { ReactNode } from 'react'
import { FieldError, FieldHint } from './form-controls'

type Field = FieldMetadata<string | undefined, Record<string, unknown>, string[]>

/** A declaration the person ticks themselves (never ticked for them), its hint and its error under it. */
export function DeclarationField({ field, hint, children }: { field: Field; hint?: ReactNode; children: ReactNode }) {
  // Conform would tick it again from the server's last answer, which is right: only the person ticks it.
  const { key, ...props } = getInputProps(field, { type: 'checkbox', value: 'on', ariaDescribedBy: hint ? field.descriptionId : undefined })
  return (
    <div>
      <div className="flex items-start gap-3">
        <input key={key} {...props} className="mt-0.5 h-6 w-6 shrink-0 accent-brand-700" />
        <label htmlFor={field.id} className="text-ink">
          {children}
        </label>
      </div>
      <FieldHint field={field}>{hint}</FieldHint>
      <FieldError field={field} />
    </div>
  )
}
