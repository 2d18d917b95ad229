import type { ReportSummary } from '~/modules/reports/reports.server'
import { formatFileSize } from '~/web/file-size'

/** A delivered report as the report panel shows it: the note, the video links, each file's link and size. */
export type ReportView = {
  note: string
  videoLinks: Array<{ label: string; url: string }>
  files: Array<{ filename: string; url: string; size: string }>
}

/** A delivered report as a customer's page shows it, each file behind `fileUrl`. */
export function reportView(report: ReportSummary | undefined, fileUrl: (fileId: number) => string): ReportView | null {
  if (!report?.deliveredAt) return null
  return {
    note: report.note,
    videoLinks: report.videoLinks,
    files: report.files.map((file) => ({ filename: file.filename, url: fileUrl(file.id), size: formatFileSize(file.sizeBytes) })),
  }
}
