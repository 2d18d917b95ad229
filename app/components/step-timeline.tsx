import type { ReactNode } from 'react'

type Step = { title: string; icon: ReactNode; text: ReactNode }

/** Numbered steps joined by a line, as an ordered list so their order is announced too. */
export function StepTimeline({ steps }: { steps: Step[] }) {
  return (
    <ol className="relative space-y-8">
      {steps.map((step, index) => (
        <li key={step.title} className="relative flex gap-5">
          {index < steps.length - 1 && <span aria-hidden="true" className="absolute top-14 -bottom-8 left-7 w-0.5 -translate-x-1/2 bg-brand-100" />}
          <span className="relative flex h-14 w-14 shrink-0 items-center justify-center rounded-2xl bg-brand-700 text-white shadow-sm">
            {step.icon}
            <span
              aria-hidden="true"
              className="absolute -top-2 -right-2 flex h-6 w-6 items-center justify-center rounded-full bg-accent-500 text-xs font-extrabold text-ink ring-2 ring-white"
            >
              {index + 1}
            </span>
          </span>
          <div className="card flex-1 p-5 shadow-sm sm:p-6">
            <h3 className="text-xl font-bold text-ink">
              <span className="sr-only">Step {index + 1}: </span>
              {step.title}
            </h3>
            <p className="mt-2 leading-relaxed text-muted">{step.text}</p>
          </div>
        </li>
      ))}
    </ol>
  )
}
