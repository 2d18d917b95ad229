// The media library's forms, checked by the admin action and, in the browser, as staff type. The
// file itself is checked by its bytes on the server (app/modules/media/images.server.ts).
import { z } from 'zod'
import { optionalText } from '~/lib/text-fields'
import { ALT_TEXT_MAX, COLLECTION_CODES, IMAGE_MAX_BYTES, MEDIA_TITLE_MAX, megabytes, VIDEO_LOOP_MAX_BYTES } from './limits'

/** A checkbox: sent as "on" when ticked, not at all when not. */
const decorativeField = z
  .string()
  .optional()
  .transform((value) => value === 'on' || value === 'true')

/** A photo of the library by its id, or none (the select left on its empty option). */
export const photoIdField = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? Number(value) : null))
  .pipe(z.number({ message: 'Choose a photo from the list' }).int('Choose a photo from the list').positive('Choose a photo from the list').nullable())

/** Alt text, unless the photo is marked decorative by choice (then it is left empty on purpose). */
function describedOrDecorative(value: { altText: string; decorative: boolean }, context: z.RefinementCtx) {
  if (value.decorative && value.altText) context.addIssue({ code: 'custom', path: ['altText'], message: 'A decorative image has no alt text: clear the field, or untick "decorative".' })
}

export const FILE_TOO_LARGE = `This file is too large: a photo may be ${megabytes(IMAGE_MAX_BYTES)} at most, a video loop ${megabytes(VIDEO_LOOP_MAX_BYTES)}.`

export const UploadSchema = z
  .object({
    file: z
      .instanceof(File, { message: 'Choose a file to upload.' })
      .refine((file) => file.size > 0, 'Choose a file to upload.')
      .refine((file) => file.size <= Math.max(IMAGE_MAX_BYTES, VIDEO_LOOP_MAX_BYTES), FILE_TOO_LARGE),
    collection: z.enum(COLLECTION_CODES, { message: 'Choose what the file shows.' }),
    title: optionalText(MEDIA_TITLE_MAX),
    altText: optionalText(ALT_TEXT_MAX),
    decorative: decorativeField,
  })
  .superRefine(describedOrDecorative)

export const MediaDetailsSchema = z
  .object({
    id: z.coerce.number().int().positive(),
    title: z.string().trim().min(1, 'Enter a name for it.').max(MEDIA_TITLE_MAX, `Keep the name to ${MEDIA_TITLE_MAX} characters.`),
    altText: optionalText(ALT_TEXT_MAX),
    decorative: decorativeField,
    posterId: photoIdField,
  })
  .superRefine(describedOrDecorative)

export const DeleteMediaSchema = z.object({ id: z.coerce.number().int().positive() })
