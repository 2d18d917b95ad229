// How every page shows the size of a file (a report's PDF, a clip, an upload under way). Nothing
// server-only may be imported here: the clip uploader shows its progress with it in the browser.

const KB = 1024
const MB = 1024 * KB
const GB = 1024 * MB

/**
 * 48_000 → "47 KB", 2_411_724 → "2.3 MB", 52_428_800 → "50 MB", 1_610_612_736 → "1.5 GB": under
 * 1 MB in whole KB (never "0.0 MB", and at least "1 KB" for a file that has any bytes), one decimal
 * below 10 of a unit, whole units above.
 */
export function formatFileSize(bytes: number): string {
  if (bytes <= 0) return '0 KB'
  if (Math.round(bytes / KB) < 1024) return `${Math.max(1, Math.round(bytes / KB))} KB`
  const [size, unit] = bytes >= GB ? [bytes / GB, 'GB'] : [bytes / MB, 'MB']
  return `${size < 9.95 ? size.toFixed(1) : Math.round(size)} ${unit}`
}
