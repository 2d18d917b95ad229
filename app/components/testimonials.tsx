import type { Picture } from '~/modules/media/picture'
import { ResponsivePicture } from './picture'
import { SectionHeading } from './section-heading'

export type ShownTestimonial = { quote: string; name: string; role: string; picture: Picture | null }

/** One testimonial as the site shows it: the words, then who said them, with their photo when there is one. */
export function TestimonialFigure({ quote, name, role, picture }: ShownTestimonial) {
  return (
    <figure className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <blockquote className="flex-1 text-lg leading-relaxed text-ink">
        <p>{`“${quote}”`}</p>
      </blockquote>
      <figcaption className="mt-5 flex items-center gap-4">
        {picture && <ResponsivePicture picture={picture} sizes="56px" className="h-14 w-14 shrink-0 rounded-full" imgClassName="h-full w-full object-cover" />}
        <span>
          <span className="block font-bold text-ink">{name}</span>
          <span className="block text-sm font-semibold text-brand-700">{role}</span>
        </span>
      </figcaption>
    </figure>
  )
}

/**
 * "What families say": the testimonials their speakers (or their parents) agreed to, newest first.
 * Nothing at all, not even the heading, while there are none.
 */
export function Testimonials({ testimonials }: { testimonials: ShownTestimonial[] }) {
  if (testimonials.length === 0) return null
  return (
    <section aria-labelledby="testimonials-heading" className="py-16 sm:py-20">
      <div className="container-page">
        <SectionHeading id="testimonials-heading" eyebrow="Testimonials" title="What families say" align="center" />
        <ul className="mt-10 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {testimonials.map((testimonial, index) => (
            <li key={`${index}-${testimonial.name}`}>
              <TestimonialFigure {...testimonial} />
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}
