import type { FieldMetadata } from '@conform-to/react'
import { DeclarationField } from './declaration-field'

type Field = Parameters<typeof DeclarationField>[0]['field']

/**
 * The box next to a WhatsApp number that asks for messages there. Never ticked for the person; its
 * words are the ones recorded with the opt-in (from the loader: `wording`), so what is kept is
 * exactly what they read. Forms show it only while the site sends WhatsApp messages.
 */
export function WhatsAppOptInField({ field, wording }: { field: FieldMetadata<string | boolean | undefined, Record<string, unknown>, string[]>; wording: string }) {
  return <DeclarationField field={field as Field}>{wording}</DeclarationField>
}
