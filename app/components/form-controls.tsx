import { getCollectionProps, getInputProps, getSelectProps, getTextareaProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react'
import { isValidElement, useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { Form, useNavigation } from 'react-router'
import type { z } from 'zod'
import { WithoutScript } from './scripting'
import { HONEYPOT_FIELD } from '~/web/honeypot'
import { useHydrated } from '~/web/use-hydrated'

// One way to build every form: Conform field metadata in, labelled controls out, each error next
// to its field and tied to it with aria-describedby / aria-invalid. Nothing here loads zod: a page
// shows its form first and fetches the rules that check it afterwards (useLazyValidatedForm).

type Field = FieldMetadata<string | undefined, Record<string, unknown>, string[]>


export function FieldError({ field }: { field: Field }) {
  if (!field.errors?.length) return null
  return (
    <p id={field.errorId} className="mt-1 text-sm font-medium text-red-700">
      {field.errors[0]}
    </p>
  )
}

/** The hint under a field, which the field's aria-describedby names; nothing without one. */
export function FieldHint({ field, children }: { field: Field; children?: ReactNode }) {
  if (!children) return null
  // A hint only a visitor without JavaScript needs takes no room on a page that runs it.
  const withoutScriptOnly = isValidElement(children) && children.type === WithoutScript
  return (
    <p id={field.descriptionId} className={withoutScriptOnly ? 'mt-1 hidden text-sm text-muted noscript:block' : 'mt-1 text-sm text-muted'}>
      {children}
    </p>
  )
}

type TextFieldProps = {
  field: Field
  label: string
  type?: 'text' | 'email' | 'tel' | 'number' | 'password' | 'date' | 'time'
  autoComplete?: string
  inputMode?: 'text' | 'numeric' | 'decimal' | 'tel' | 'email'
  hint?: ReactNode
  optional?: boolean
  placeholder?: string
  /** Only for the one field a page is for (a code just e-mailed): the keyboard opens on it. */
  autoFocus?: boolean
  /** The id of a datalist whose values the browser suggests. */
  list?: string
}

export function TextField({ field, label, type = 'text', autoComplete, inputMode, hint, optional, placeholder, autoFocus, list }: TextFieldProps) {
  const { key, ...props } = getInputProps(field, { type, ariaDescribedBy: hint ? field.descriptionId : undefined })
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-semibold text-ink">
        {label}
        {optional && <span className="font-normal text-muted"> (optional)</span>}
      </label>
      <input key={key} {...props} autoComplete={autoComplete} inputMode={inputMode} placeholder={placeholder} autoFocus={autoFocus} list={list} className="input mt-1" />
      <FieldHint field={field}>{hint}</FieldHint>
      <FieldError field={field} />
    </div>
  )
}

/** A password input with a Show/Hide button (shown once JavaScript runs, since it needs it). */
export function PasswordField({ field, label, autoComplete }: { field: Field; label: string; autoComplete: 'current-password' | 'new-password' }) {
  const [visible, setVisible] = useState(false)
  const hydrated = useHydrated()
  const { key, ...props } = getInputProps(field, { type: 'password' })
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      <div className="relative">
        <input key={key} {...props} type={visible ? 'text' : 'password'} autoComplete={autoComplete} className={`input mt-1 ${hydrated ? 'pr-20' : ''}`} />
        {hydrated && (
          <button
            type="button"
            onClick={() => setVisible((shown) => !shown)}
            aria-controls={field.id}
            aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
            className="absolute inset-y-0 right-1 my-auto h-9 rounded-md px-3 text-sm font-semibold text-brand-700 hover:bg-brand-50"
          >
            {visible ? 'Hide' : 'Show'}
          </button>
        )}
      </div>
      <FieldError field={field} />
    </div>
  )
}

/** What a textarea outside a validated form needs: its id and name, and the text it starts with. */
type PlainField = { id: string; name: string; defaultValue?: string }

/** Conform's fields answer every property through a proxy, so `in` cannot tell them from plain ones. */
const isValidated = (field: Field | PlainField): field is Field => typeof (field as Partial<Field>).errorId === 'string'

/** A textarea under its label (with an optional note in lighter type), its error under it. */
export function TextAreaField({ field, label, note }: { field: Field | PlainField; label: string; note?: string }) {
  const validated = isValidated(field)
  const { key, ...props } = validated ? getTextareaProps(field) : { key: undefined, ...field }
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-semibold text-ink">
        {label}
        {note && <span className="font-normal text-muted"> ({note})</span>}
      </label>
      <textarea key={key} {...props} rows={3} className="input mt-1" />
      {validated && <FieldError field={field} />}
    </div>
  )
}

/**
 * A select; a required one starts with "Choose…" (an empty value, as valid HTML asks of a required
 * select), so nothing is chosen for the person unless the form gives a value.
 */
export function SelectField({ field, label, options, hint }: { field: Field; label: string; options: ReadonlyArray<{ value: string; label: string }>; hint?: ReactNode }) {
  const { key, ...props } = getSelectProps(field, { ariaDescribedBy: hint ? field.descriptionId : undefined })
  const placeholder = props.required && options[0]?.value !== '' ? [{ value: '', label: 'Choose…' }] : []
  return (
    <div>
      <label htmlFor={field.id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      <select key={key} {...props} className="input mt-1">
        {[...placeholder, ...options].map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldHint field={field}>{hint}</FieldHint>
      <FieldError field={field} />
    </div>
  )
}

/**
 * The props of a group of radio buttons, as Conform's getCollectionProps gives them, with the
 * field's metadata read once: each read of it is computed again, and a form of two dozen time slots
 * read it for every one (a millisecond of every render).
 */
export function radioProps(field: Pick<Field, 'key' | 'id' | 'name' | 'formId' | 'required' | 'initialValue'>, values: readonly string[]) {
  const { key, id, name, formId, required, initialValue } = field
  return values.map((value) => ({ key: `${key ?? ''}${value}`, id: `${id}-${value}`, name, form: formId, type: 'radio' as const, value, defaultChecked: initialValue === value, required: required || undefined }))
}

export function RadioGroupField({ field, legend, options }: { field: Field; legend: string; options: ReadonlyArray<{ value: string; label: string }> }) {
  const labels = new Map(options.map((option) => [option.value, option.label]))
  return (
    <fieldset aria-describedby={field.errors?.length ? field.errorId : undefined}>
      <legend className="text-sm font-semibold text-ink">{legend}</legend>
      <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
        {radioProps(
          field,
          options.map((option) => option.value),
        ).map(({ key, ...props }) => (
          <label key={key} className="inline-flex min-h-11 items-center gap-2 text-base">
            <input {...props} className="h-5 w-5 accent-brand-700" />
            {labels.get(props.value)}
          </label>
        ))}
      </div>
      <FieldError field={field} />
    </fieldset>
  )
}

/** A group of checkboxes (several values of one field), with the group's error under it. */
export function CheckboxGroupField({ field, legend, options }: { field: FieldMetadata<string[] | undefined, Record<string, unknown>, string[]>; legend: string; options: ReadonlyArray<{ value: string; label: string }> }) {
  const labels = new Map(options.map((option) => [option.value, option.label]))
  return (
    <fieldset aria-describedby={field.errors?.length ? field.errorId : undefined}>
      <legend className="text-sm font-semibold text-ink">{legend}</legend>
      <div className="mt-2 flex flex-wrap gap-2">
        {getCollectionProps(field, { type: 'checkbox', options: options.map((option) => option.value), ariaAttributes: false }).map(({ key, ...props }) => (
          <label key={key} className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 px-3">
            <input {...props} className="h-5 w-5 accent-brand-700" />
            {labels.get(props.value)}
          </label>
        ))}
      </div>
      {field.errors?.length ? (
        <p id={field.errorId} className="mt-1 text-sm font-medium text-red-700">
          {field.errors[0]}
        </p>
      ) : null}
    </fieldset>
  )
}

/** Errors about the whole form (a wrong password, a rate limit), announced when they appear, under a title when given. */
export function FormAlert({ id, errors, title }: { id: string; errors: string[] | undefined; title?: string | null }) {
  if (!errors?.length) return null
  return (
    <div id={id} role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
      {title && <p className="font-bold">{title}</p>}
      {errors.map((error) => (
        <p key={error}>{error}</p>
      ))}
    </div>
  )
}

/** The trap for bots: off-screen, skipped by keyboard and screen readers, never autofilled. */
export function HoneypotField() {
  const id = useId()
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Leave this field empty</label>
      <input type="text" id={id} name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  )
}

/** The submission a pending button waits for; by default any form of the page. */
export type PendingWhen = {
  /** The path the form posts to, its query aside. */
  action?: string
  /** Fields that tell the form from the page's others, such as its intent or the item it is about (null: a field it does not send). */
  fields?: Record<string, string | null>
  /** Pending until the page the answer leads to has loaded, not only while the form is on its way. */
  untilLoaded?: boolean
}

/** True while the page's form that `when` describes is being submitted. */
export function usePending({ action, fields = {}, untilLoaded = false }: PendingWhen = {}) {
  const { state, formAction, formData } = useNavigation()
  if (!formData || !formAction || (state !== 'submitting' && !untilLoaded)) return false
  if (action !== undefined && new URL(formAction, 'http://localhost').pathname !== action) return false
  return Object.entries(fields).every(([name, value]) => formData.get(name) === value)
}

type PendingButtonProps = {
  when?: PendingWhen
  /** What the button says while pending; without one it keeps its text. */
  pendingLabel?: string
  className?: string
  name?: string
  value?: string
  formNoValidate?: boolean
  children: ReactNode
}

/**
 * A submit button that cannot be pressed twice: while its form is on its way it is disabled and
 * says `pendingLabel`. Without JavaScript it is a plain submit button.
 */
export function PendingButton({ when, pendingLabel, className = 'btn-primary', children, ...button }: PendingButtonProps) {
  const pending = usePending(when)
  return (
    <button type="submit" {...button} disabled={pending} className={className}>
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  )
}

type SaveButtonProps<Intent extends string> = {
  intent: Intent
  /** The fields that tell this form from others of its intent: the item or member of a repeated one. */
  target?: Record<string, string | null>
  pendingLabel?: string
  className?: string
  children: ReactNode
}

/**
 * A staff page's form button: "Saving..." (or `pendingLabel`) while that form is on its way. A
 * page names its own intents once, `const SaveButton = AnySaveButton<Intent>`, so a misspelt one
 * fails the type check.
 */
export function SaveButton<Intent extends string>({ intent, target = {}, pendingLabel = 'Saving...', className, children }: SaveButtonProps<Intent>) {
  return (
    <PendingButton when={{ fields: { intent, ...target } }} pendingLabel={pendingLabel} className={className}>
      {children}
    </PendingButton>
  )
}

/** The form under a code entry that asks for a new code: posts `intent` with the address; `children` say when to use it. */
export function ResendCodeForm({ intent, email, children }: { intent: string; email: string; children: ReactNode }) {
  return (
    <Form method="post" className="mt-6 border-t border-slate-200 pt-6 text-sm">
      <HoneypotField />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="email" value={email} />
      {children}
      <button type="submit" className="btn-secondary mt-3 w-full">
        Send a new code
      </button>
    </Form>
  )
}

export function AuthCard({ title, lead, children, wide }: { title: string; lead?: ReactNode; children: ReactNode; wide?: boolean }) {
  return (
    <section className="bg-gradient-to-b from-brand-50 to-white px-4 py-10 sm:py-16">
      <div className={`card mx-auto w-full ${wide ? 'max-w-3xl' : 'max-w-md'} p-6 shadow-sm sm:p-8`}>
        <h1 className="text-2xl font-extrabold text-brand-900 sm:text-3xl">{title}</h1>
        {lead && <div className="mt-2 text-muted">{lead}</div>}
        <div className="mt-6">{children}</div>
      </div>
    </section>
  )
}


/** The required/minLength/pattern attributes of each field, which the route's loader derives from its schema. */
export type FieldConstraints = NonNullable<Parameters<typeof useForm>[0]['constraint']>

type Validate = (formData: FormData) => unknown

/**
 * Conform set up for a form that shows before its rules load: the server's last result (errors,
 * values) is shown on first render, so the form works without JavaScript, and the attributes the
 * browser checks come with the page (`constraint`). The schema loads when the browser is idle or
 * at the first focus or keystroke in the form; from then it validates each field when it loses
 * focus and again as you type. Until then a press of the button posts the form, and the server's
 * answer shows the same messages next to the fields.
 */
export function useLazyValidatedForm<Schema extends z.ZodObject>(
  loadSchema: () => Promise<Schema>,
  options: { id?: string; constraint: FieldConstraints; lastResult?: SubmissionResult<string[]> | null; defaultValue?: Record<string, string | undefined> },
) {
  const [validate, setValidate] = useState<Validate | null>(null)
  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>, string[]>({
    ...(options.id ? { id: options.id } : {}),
    lastResult: options.lastResult,
    defaultValue: options.defaultValue as never,
    constraint: options.constraint,
    shouldValidate: validate ? 'onBlur' : 'onSubmit',
    shouldRevalidate: validate ? 'onInput' : 'onSubmit',
    onValidate: validate ? ({ formData }) => validate(formData) as never : undefined,
  })
  // The fields left before the schema arrived, checked as soon as it does.
  const leftEarly = useRef(new Set<string>())
  const loaded = validate !== null

  useEffect(() => {
    const element = document.getElementById(form.id)
    if (loaded || !element) return
    let loading = false
    let cancelled = false
    const load = () => {
      if (loading) return
      loading = true
      // form-validation first: it tells zod not to compile code before the schema is built.
      import('./form-validation')
        .then(async ({ validatorFor }) => validatorFor(await loadSchema()))
        .then(
          (validator) => {
            if (!cancelled) setValidate(() => validator)
          },
          // Offline for a moment: the next focus tries again, and the server checks meanwhile.
          () => (loading = false),
        )
    }
    const remember = (event: FocusEvent) => {
      const name = (event.target as HTMLInputElement).name
      if (name) leftEarly.current.add(name)
    }
    element.addEventListener('focusin', load)
    element.addEventListener('input', load)
    element.addEventListener('focusout', remember)
    const idle = 'requestIdleCallback' in window ? requestIdleCallback(load, { timeout: 5000 }) : setTimeout(load, 1000)
    return () => {
      cancelled = true
      element.removeEventListener('focusin', load)
      element.removeEventListener('input', load)
      element.removeEventListener('focusout', remember)
      if ('cancelIdleCallback' in window) cancelIdleCallback(idle as number)
      else clearTimeout(idle)
    }
  }, [form.id, loaded])

  useEffect(() => {
    if (!loaded) return
    for (const name of leftEarly.current) form.validate({ name })
    leftEarly.current.clear()
  }, [loaded])

  return [form, fields] as const
}
