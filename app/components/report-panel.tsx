import type { ReportView } from '~/web/reports/report-view.server'

/**
 * A delivered report, or a published analysis, in a customer's view of their booking: "Report
 * ready", with the link to the analysis's page when it is published. A guest opens it by signing in
 * with the booking's e-mail address (`signInAs`).
 */
export function ReportPanel({ report, analysisUrl, signInAs }: { report: ReportView | null; analysisUrl?: string | null; signInAs?: string }) {
  return (
    <section aria-label="Your report" className="mt-4 rounded-xl border border-emerald-300 bg-emerald-50 p-4">
      <p className="inline-flex items-center gap-2 font-bold text-emerald-900">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2.5">
          <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        Report ready
      </p>
      {analysisUrl && (
        <p className="mt-2">
          <a href={analysisUrl} className="font-semibold text-brand-700 underline underline-offset-4">
            See the analysis: figures, findings and drills
          </a>
          {signInAs && <span className="block text-sm text-muted">Sign in, or create an account, with {signInAs} to open it: the analysis is shown only to that address.</span>}
        </p>
      )}
      {report && <ReportContents report={report} />}
    </section>
  )
}

/** A report's note, PDF files and video links, wherever the report is shown. */
export function ReportContents({ report }: { report: ReportView }) {
  return (
    <>
      {report.note && <p className="mt-2 whitespace-pre-line text-ink">{report.note}</p>}
      {report.files.length > 0 && (
        <ul className="mt-3 space-y-1">
          {report.files.map((file) => (
            <li key={file.url}>
              <a href={file.url} className="font-semibold text-brand-700 underline underline-offset-4 [overflow-wrap:anywhere]">
                {file.filename}
              </a>{' '}
              <span className="text-sm text-muted">(PDF, {file.size})</span>
            </li>
          ))}
        </ul>
      )}
      {report.videoLinks.length > 0 && (
        <ul className="mt-3 space-y-1">
          {report.videoLinks.map((link) => (
            <li key={link.url}>
              <a href={link.url} className="font-semibold text-brand-700 underline underline-offset-4" rel="noopener noreferrer" target="_blank">
                {link.label || 'Video'}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
