/**
 * Whether a request's `Save-Data` header asks the site to send less (a phone's data saver): the
 * header's one value, "on", in any case and with spaces around it.
 */
export function savesData(header: string | string[] | null | undefined) {
  return String(header ?? '').trim().toLowerCase() === 'on'
}
