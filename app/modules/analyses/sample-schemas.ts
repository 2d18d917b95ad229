// The rules of the staff's forms for the public sample analysis, used by the server actions and, in
// the browser, for validation as you type. Nothing server-only may be imported here.
import { z } from 'zod'
import { optionalText, requiredText } from '~/lib/text-fields'
import { LIMITS } from './schemas'

export const SAMPLE_LIMITS = { description: 80, agreementNote: 500 } as const

/** Where a sample comes from: a family's analysis they agreed to share, or the lab's own recording. */
export const SAMPLE_SOURCES = [
  { value: 'family_shared', label: 'A family’s analysis, shared with their written agreement' },
  { value: 'lab_recorded', label: 'The lab’s own recording (a lab member swimming)' },
] as const

/** An index into the sample's findings or a finding's drills, as a form sends it. */
const position = z
  .string({ error: 'Not found' })
  .regex(/^\d{1,3}$/, 'Not found')
  .transform(Number)

/**
 * Copying a published analysis as a sample. A family's analysis needs staff to record that the
 * family agreed in writing: the box ticked, and how and when.
 */
export const CopySampleSchema = z
  .object({
    source: z.enum(['family_shared', 'lab_recorded'], { error: 'Choose whose analysis this is' }),
    agreed: z.literal('on', { error: 'Tick the box, or leave it empty' }).optional(),
    agreementNote: optionalText(SAMPLE_LIMITS.agreementNote),
  })
  .superRefine((value, context) => {
    if (value.source !== 'family_shared') return
    if (value.agreed !== 'on') context.addIssue({ code: 'custom', path: ['agreed'], message: 'A family’s analysis is shared only with their written agreement: tick the box once you have it.' })
    if (!value.agreementNote) context.addIssue({ code: 'custom', path: ['agreementNote'], message: 'Write how and when the family agreed, for example “By e-mail on 3 May 2026”.' })
  })

export const SampleDetailsSchema = z.object({
  sampleId: z.string(),
  swimmerDescription: requiredText('Describe the swimmer without naming them, for example “Sample swimmer, 13, competitive”', SAMPLE_LIMITS.description),
  summary: optionalText(LIMITS.summary),
})

export const SampleFindingSchema = z.object({
  sampleId: z.string(),
  finding: position,
  title: requiredText('Enter what was found', LIMITS.title),
  whyItMatters: optionalText(LIMITS.text),
})

export const SampleDrillSchema = z.object({
  sampleId: z.string(),
  finding: position,
  drill: position,
  name: requiredText('Name the drill', LIMITS.title),
  instructions: optionalText(LIMITS.text),
})

export const RemoveSampleFindingSchema = z.object({ sampleId: z.string(), finding: position })
