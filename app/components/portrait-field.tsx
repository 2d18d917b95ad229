import { getSelectProps, type FieldMetadata } from '@conform-to/react'
import type { ReactNode } from 'react'
import { href, Link } from 'react-router'
import { FieldError, FieldHint } from './form-controls'

export type PhotoOption = { value: string; label: string }

type Field = FieldMetadata<string | undefined, Record<string, unknown>, string[]>

/**
 * A portrait chosen from the media library's usable ones (or none). A photo chosen before that is no
 * longer usable stays listed, so saving the form does not drop it unseen: the save then says why it
 * cannot be shown.
 */
export function PortraitField({ field, portraits, label = 'Photo', none = 'No photo', hint }: { field: Field; portraits: PhotoOption[]; label?: string; none?: string; hint: ReactNode }) {
  const { key, ...props } = getSelectProps(field, { ariaDescribedBy: field.descriptionId })
  const current = field.initialValue
  const missing = current && !portraits.some((photo) => photo.value === current) ? [{ value: current, label: 'A photo that cannot be shown (not ready, or without alt text)' }] : []
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      <select key={key} {...props} className="input mt-1">
        {[{ value: '', label: none }, ...missing, ...portraits].map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <MediaLibraryHint field={field}>{hint}</MediaLibraryHint>
      <FieldError field={field} />
    </div>
  )
}

/** A photo field's hint, with the way to the media library where its photos come from. */
export function MediaLibraryHint({ field, children }: { field: Field; children: ReactNode }) {
  return (
    <FieldHint field={field}>
      {children}{' '}
      <Link to={href('/admin/media')} className="font-semibold text-brand-700 underline">
        Open the media library
      </Link>
    </FieldHint>
  )
}
