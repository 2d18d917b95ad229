import { data } from 'react-router'

/** Far more than any of the site's forms needs (the longest is the settings page's texts). */
const FORM_LIMIT_BYTES = 1024 * 1024

const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i

/** The longest list a form has (a camp's batches) is far shorter; see `readForm`. */
const MAX_LIST_INDEX = 999
const MAX_FIELDS = 1000

/**
 * The form a page posted. Anything else (JSON, plain text, a broken upload, a body larger than
 * `maxBytes`) is the sender's mistake, answered with a 4xx instead of the 500 that reading it
 * blindly would give. The body is counted as it arrives, so a request without Content-Length
 * cannot stream an unlimited form into memory either.
 */
export async function readForm(request: Request, { maxBytes = FORM_LIMIT_BYTES }: { maxBytes?: number } = {}): Promise<FormData> {
  const type = request.headers.get('Content-Type') ?? ''
  const kind = FORM_TYPES.exec(type)?.[1]?.toLowerCase()
  if (!kind) throw data({ error: 'Please send the form from its page.' }, { status: 415 })
  if (Number(request.headers.get('Content-Length')) > maxBytes) throw tooLarge()
  const body = await readUpTo(request, maxBytes)
  let form: FormData
  try {
    form = kind === 'application/x-www-form-urlencoded' ? urlencodedForm(body) : await new Response(body, { headers: { 'Content-Type': type } }).formData()
  } catch {
    throw unreadable()
  }
  // Conform turns a field named `x[99999999]` into an array of that length, and sends it back in
  // the reply: one short request would cost hundreds of megabytes.
  const names = [...form.keys()]
  if (names.length > MAX_FIELDS || names.some((name) => [...name.matchAll(/\[(\d+)\]/g)].some((index) => Number(index[1]) > MAX_LIST_INDEX))) throw unreadable()
  // No one types a NUL character, and PostgreSQL cannot store one in text: saving it would fail.
  if ([...form].some(([name, value]) => name.includes('\u0000') || (typeof value === 'string' && value.includes('\u0000')))) throw unreadable()
  return form
}

/** What `Response.formData()` makes of an urlencoded body, without its streams and blobs. */
function urlencodedForm(body: Buffer) {
  const form = new FormData()
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) form.append(name, value)
  return form
}

function unreadable() {
  return data({ error: 'The form sent could not be read. Please try again from its page.' }, { status: 400 })
}

function tooLarge() {
  return data({ error: 'The form sent is too large.' }, { status: 413 })
}

async function readUpTo(request: Request, maxBytes: number) {
  const chunks: Uint8Array[] = []
  let total = 0
  if (!request.body) return Buffer.alloc(0)
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel()
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks)
}

/**
 * The messages of a failed submission's hidden fields (the e-mail a verification page carries,
 * say): the page shows no field for them, so they belong in the form's alert.
 */
export function hiddenFieldMessages(submission: { error: Record<string, string[] | null> | null }, names: string[]) {
  return names.flatMap((name) => submission.error?.[name] ?? [])
}
