// The choices of the form that makes a coach's link, for the pages that show it and for the schema
// that checks it; no zod here, so a results page shows the form before its rules load.

/** How long a coach's link works, in days: the choices the form offers. */
export const SHARE_DAYS = ['7', '30', '90', '180'] as const
export const DEFAULT_SHARE_DAYS = '90'

export const SHARE_SCOPES = [
  { value: 'swimmer', label: 'All of this swimmer’s results' },
  { value: 'analysis', label: 'Only this analysis' },
] as const
