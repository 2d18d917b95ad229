import { getInputProps, type FieldMetadata } from '@conform-to/react'
import { FieldError } from './form-controls'

type Field = FieldMetadata<string | boolean | undefined, Record<string, unknown>, string[]>

/**
 * The box next to a WhatsApp number that asks for messages there. Never ticked for the person, and
 * never required; its words are the ones recorded with the opt-in (from the loader: `wording`), so
 * what is kept is exactly what they read. Forms show it only while the site sends WhatsApp messages.
 */
export function WhatsAppOptInField({ field, wording }: { field: Field; wording: string }) {
  const { key, ...props } = getInputProps(field as FieldMetadata<string | undefined, Record<string, unknown>, string[]>, { type: 'checkbox', value: 'on' })
  return (
    <div>
      <div className="flex items-start gap-3">
        <input key={key} {...props} required={false} className="mt-0.5 h-6 w-6 shrink-0 accent-brand-700" />
        <label htmlFor={field.id} className="text-ink">
          {wording}
        </label>
      </div>
      <FieldError field={field as FieldMetadata<string | undefined, Record<string, unknown>, string[]>} />
    </div>
  )
}
