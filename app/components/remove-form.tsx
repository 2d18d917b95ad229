import { Form, Link } from 'react-router'

/**
 * A removal's button, and after the first press the question with the button that removes: the
 * form is sent again with confirm=yes. `name` and `id` say what is removed; `verb` is the word on
 * the buttons ("remove", or "delete" for a thing as a whole).
 */
export function RemoveForm({ intent, name, id, what, question, confirming, verb = 'remove' }: { intent: string; name: string; id: number | string; what: string; question: string; confirming: boolean; verb?: 'remove' | 'delete' }) {
  if (confirming) {
    return (
      <div role="group" aria-labelledby={`${intent}-${id}-question`} tabIndex={-1} ref={(element) => element?.focus()} className="mt-4 rounded-xl border border-amber-300 bg-amber-50 p-4">
        <p id={`${intent}-${id}-question`} className="font-semibold text-ink">
          {question} This cannot be undone.
        </p>
        <div className="mt-3 flex flex-wrap gap-3">
          <Form method="post">
            <input type="hidden" name="intent" value={intent} />
            <input type="hidden" name={name} value={id} />
            <button type="submit" name="confirm" value="yes" className="btn-primary bg-red-700 hover:bg-red-800">
              Yes, {verb} it
            </button>
          </Form>
          <Link to="." preventScrollReset className="btn-secondary">
            Keep it
          </Link>
        </div>
      </div>
    )
  }
  return (
    <Form method="post" className="mt-4">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={name} value={id} />
      <button type="submit" className="btn-secondary">
        {verb === 'remove' ? 'Remove' : 'Delete'}
        <span className="sr-only"> {what}</span>…
      </button>
    </Form>
  )
}
