// The forms of the partners and venues page, checked by its action and, in the browser, as staff
// type. Nothing server-only may be imported here.
import { z } from 'zod'
import { isHttpsLink, optionalText, requiredText } from '~/lib/text-fields'

export const PARTNER_KINDS = ['partner', 'venue'] as const

export const PARTNER_NAME_MAX = 120

const LOGO_MESSAGE = 'Choose its logo from the list'

export const PartnerSchema = z.object({
  kind: z.enum(PARTNER_KINDS, { message: 'Choose whether it is a partner or a venue' }),
  name: requiredText('Enter its name', PARTNER_NAME_MAX),
  link: optionalText(300)
    .refine((value) => value === '' || isHttpsLink(value), 'Enter the full address of its site, starting with https://, or leave it empty')
    .transform((value) => value || null),
  logoId: z.string({ error: LOGO_MESSAGE }).trim().regex(/^[1-9]\d{0,8}$/, LOGO_MESSAGE).transform(Number),
})
export type PartnerInput = z.output<typeof PartnerSchema>

const partnerId = z.coerce.number().int().positive()

export const PartnerDetailsSchema = PartnerSchema.extend({ id: partnerId })

export const PartnerIdSchema = z.object({ id: partnerId })

export const MovePartnerSchema = z.object({ id: partnerId, direction: z.enum(['up', 'down']) })

export const ShowPartnerSchema = z.object({ id: partnerId, shown: z.enum(['true', 'false']).transform((value) => value === 'true') })
