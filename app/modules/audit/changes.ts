import { formatGstRate, formatRupees } from '~/lib/money'
import { formatLabDateTime } from '~/lib/lab-time'

/** One field an audit entry changed, as staff read it: "Regular price: ₹35,000.00 → none". */
type Change = { field: string; before: string; after: string }

const NAMES: Record<string, string> = {
  pricePaise: 'price',
  regularPricePaise: 'regular price',
  gstin: 'GSTIN',
  gstRateBasisPoints: 'GST rate',
  websiteUrl: 'website',
  whatsappNumber: 'WhatsApp number',
  supportEmail: 'support e-mail',
  infoEmail: 'general e-mail',
  linkedin: 'LinkedIn',
  instagram: 'Instagram',
  twitter: 'X (Twitter)',
}

/** "socialLinks" → "social links"; array positions count from 1 ("team", "1" → "team 2"). */
function label(path: string[]) {
  const parts: string[] = []
  for (const segment of path) {
    if (/^\d+$/.test(segment) && parts.length > 0) parts[parts.length - 1] += ` ${Number(segment) + 1}`
    else parts.push(NAMES[segment] ?? segment.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase())
  }
  const text = parts.join(' › ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function display(value: unknown, key: string): string {
  if (value === undefined || value === null) return 'none'
  if (typeof value === 'number' && key.endsWith('Paise')) return formatRupees(value)
  if (typeof value === 'number' && key.endsWith('BasisPoints')) return formatGstRate(value)
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value) && !Number.isNaN(Date.parse(value))) return formatLabDateTime(new Date(value))
  if (value === '') return '(empty)'
  return typeof value === 'string' ? `“${value}”` : String(value)
}

/** Every leaf of a JSON value by its path: { team: [{ name }] } → "team.0.name". */
function leaves(value: unknown, path: string[] = [], into = new Map<string, { path: string[]; value: unknown }>()) {
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) leaves(item, [...path, key], into)
  } else if (path.length > 0) {
    into.set(path.join('.'), { path, value })
  }
  return into
}

/** The fields that differ between an audit entry's before and after, in a form people read. */
export function describeChanges(before: unknown, after: unknown): Change[] {
  const old = leaves(before)
  const next = leaves(after)
  const changes: Change[] = []
  for (const key of new Set([...old.keys(), ...next.keys()])) {
    const from = old.get(key)
    const to = next.get(key)
    if (from?.value === to?.value) continue
    const path = (to ?? from)!.path
    const leaf = path.findLast((segment) => !/^\d+$/.test(segment)) ?? ''
    changes.push({ field: label(path), before: display(from?.value, leaf), after: display(to?.value, leaf) })
  }
  return changes
}
