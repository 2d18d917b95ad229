import { Form, Link } from 'react-router'
import { FormAlert, PendingButton } from '~/components/form-fields'
import type { ImportPreview } from '~/modules/analyses/metrics-import.server'

/**
 * Importing an analysis's metrics from the analysis software's CSV file: the file is previewed first
 * (what it adds and overwrites, or the rows to fix), then sent again to confirm.
 */
export function MetricsCsvImport({ preview, error }: { preview: ImportPreview | undefined; error: string | undefined }) {
  return (
    <div className="space-y-4">
      {preview && (
        <section aria-labelledby="preview-heading" tabIndex={-1} ref={(element) => element?.focus()} className="rounded-xl border border-slate-300 p-4">
          <h3 id="preview-heading" className="font-semibold text-ink">
            Preview of {preview.fileName || 'the file'}
          </h3>
          <FormAlert id="import-error" errors={error ? [error] : undefined} />
          {preview.problems.length > 0 ? (
            <div role="alert" className="mt-2 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900">
              <p className="font-bold">Nothing can be imported until the file is fixed:</p>
              <ul className="mt-1 list-disc pl-5">
                {preview.problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            </div>
          ) : preview.changes.length === 0 ? (
            <p className="mt-2 text-sm text-ink">Nothing to import: every value of the file is there already.</p>
          ) : (
            <>
              <p className="mt-2 text-sm text-ink">
                {preview.changes.length} {preview.changes.length === 1 ? 'value' : 'values'} to import, {preview.changes.filter((change) => change.previous !== null).length} of them overwriting a value
                {preview.newEvents.length > 0 && `; adds the ${preview.newEvents.join(', ')}`}.{preview.unchanged > 0 && ` ${preview.unchanged} already there.`}
                {preview.empty > 0 && ` ${preview.empty} rows without a value are left out.`}
              </p>
              {/* Focusable, so the table can be scrolled sideways from the keyboard on a phone. */}
              <div role="region" aria-label="What the import changes" tabIndex={0} className="mt-2 relative overflow-x-auto">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">What the import changes</caption>
                  <thead className="text-muted">
                    <tr>
                      <th scope="col" className="py-1 pr-3">
                        Row
                      </th>
                      <th scope="col" className="px-3 py-1">
                        Event
                      </th>
                      <th scope="col" className="px-3 py-1">
                        Metric
                      </th>
                      <th scope="col" className="py-1 pl-3">
                        Value
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.changes.map((change) => (
                      <tr key={change.row} className="border-t border-slate-200">
                        <td className="py-1 pr-3">{change.row}</td>
                        <td className="px-3 py-1">{change.event}</td>
                        <td className="px-3 py-1">{change.metric}</td>
                        <td className="py-1 pl-3">{change.previous === null ? `${change.value} (new)` : `${change.previous} → ${change.value}`}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Form method="post" encType="multipart/form-data" className="mt-3 flex flex-wrap gap-3">
                <input type="hidden" name="intent" value="csv-import" />
                <input type="hidden" name="fileName" value={preview.fileName} />
                <input type="hidden" name="csv" value={preview.csv} />
                <PendingButton when={{ fields: { intent: 'csv-import' } }} pendingLabel="Importing...">
                  Import {preview.changes.length} {preview.changes.length === 1 ? 'value' : 'values'}
                </PendingButton>
                <Link to="." preventScrollReset className="btn-secondary">
                  Cancel
                </Link>
              </Form>
            </>
          )}
        </section>
      )}
      <Form method="post" encType="multipart/form-data" className="space-y-3">
        <input type="hidden" name="intent" value="csv-preview" />
        {!preview && <FormAlert id="import-error" errors={error ? [error] : undefined} />}
        <div>
          <label htmlFor="csv-file" className="block text-sm font-semibold text-ink">
            CSV file
          </label>
          <input id="csv-file" name="file" type="file" accept=".csv,text/csv" required className="mt-1 block w-full text-sm" />
        </div>
        <PendingButton when={{ fields: { intent: 'csv-preview' } }} pendingLabel="Reading..." className="btn-secondary">
          {preview ? 'Preview another file' : 'Preview the import'}
        </PendingButton>
      </Form>
    </div>
  )
}
