import type { ReportView } from '~/components/report-panel'
import type { ReportSummary } from '~/modules/reports/reports.server'

/** A delivered report as a customer's page shows it, each file behind `fileUrl`. */
export function reportView(report: ReportSummary | undefined, fileUrl: (fileId: number) => string): ReportView | null {
  if (!report?.deliveredAt) return null
  return {
    note: report.note,
    videoLinks: report.videoLinks,
    files: report.files.map((file) => ({ filename: file.filename, url: fileUrl(file.id), size: formatFileSize(file.sizeBytes) })),
  }
}

/** 2_411_724 → "2.3 MB"; 48_000 → "47 KB". */
export function formatFileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
  return `${Math.max(1, Math.round(bytes / 1024))} KB`
}
