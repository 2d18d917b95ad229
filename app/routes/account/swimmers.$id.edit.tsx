import { getFormProps } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod/v4'
import { Form, href } from 'react-router'
import type { Route } from './+types/swimmers.$id.edit'
import { FormAlert, PendingButton, useLazyValidatedForm } from '~/components/form-controls'
import { SwimmerFormCard, SwimmerFormFields } from '~/components/swimmer-fields'
import { labToday } from '~/lib/lab-time'
import { pageMeta } from '~/lib/seo'
import { redirectWithToast } from '~/web/toast.server'
import { swimmerSchema } from '~/modules/swimmers/schemas'
import { consentInForce } from '~/modules/swimmers/consent.server'
import { swimmerAge, swimmerOf, updateSwimmer } from '~/modules/swimmers/swimmers.server'
import { requireUser } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { submitOnlyForm } from '~/web/page-forms.server'
import { notFoundUnless } from '~/web/refusals.server'
import { swimmerEditLink } from '~/lib/links'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Edit swimmer', description: "Change a swimmer's details.", path: href('/swimmers') }),
  { name: 'robots', content: 'noindex' },
]

/** The account's swimmer the address names; anything else (another account's, none, not a number) is the 404 page. */
async function ownSwimmer(accountId: number, id: string) {
  const swimmer = /^\d{1,9}$/.test(id) ? await swimmerOf(accountId, Number(id)) : null
  notFoundUnless(swimmer)
  return swimmer
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request)
  const swimmer = await ownSwimmer(user.id, params.id)
  const consented = swimmer.isAccountHolder ? false : (await consentInForce(swimmer.id)) !== null
  return {
    constraint: getZodConstraint(swimmerSchema(labToday())),
    swimmer: {
      id: swimmer.id,
      name: swimmer.name,
      isAccountHolder: swimmer.isAccountHolder,
      // The parent's declaration is asked for a swimmer under 18, unless they hold the account or a parent's consent is in force.
      declaration: !swimmer.isAccountHolder && !consented,
      values: {
        name: swimmer.name,
        age: swimmer.birthDate ? '' : String(swimmerAge(swimmer)),
        birthDate: swimmer.birthDate ?? '',
        gender: swimmer.gender,
        swimmingExperience: swimmer.swimmingExperience,
        academyName: swimmer.academyName,
        coachName: swimmer.coachName,
        specialization: swimmer.specialization,
        otherSpecialization: swimmer.otherSpecialization ?? '',
        participateInEvents: swimmer.participateInEvents ? 'yes' : 'no',
        strokeBestTime: swimmer.strokeBestTime ?? '',
      },
    },
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request)
  // Another account's swimmer is not found, whatever the form says: nothing of it is checked or changed.
  const swimmer = await ownSwimmer(user.id, params.id)
  return submitOnlyForm(await readForm(request), swimmerSchema(labToday()), async (value) => {
    const updated = await updateSwimmer(user, swimmer.id, value)
    return redirectWithToast(href('/swimmers'), { type: 'success', title: 'Swimmer updated', description: `${updated.name}'s details are saved.` })
  })
}

export default function EditSwimmer({ loaderData, actionData }: Route.ComponentProps) {
  const { swimmer } = loaderData
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/swimmers/schemas').then((schemas) => schemas.swimmerSchema(labToday())), {
    id: `swimmer-${swimmer.id}`,
    constraint: loaderData.constraint,
    lastResult: actionData,
    defaultValue: swimmer.values,
  })
  return (
    <SwimmerFormCard title={<>Edit {swimmer.name}</>}>
      <p className="mt-2 text-muted">{swimmer.isAccountHolder ? 'Your own details as a swimmer.' : "The swimmer's details, as on registration."}</p>
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-6">
        <FormAlert id={form.errorId} errors={form.errors} />
        <SwimmerFormFields fields={fields} declaration={swimmer.declaration} aboutSomeoneElse={!swimmer.isAccountHolder} />
        <PendingButton when={{ action: swimmerEditLink(swimmer.id), untilLoaded: true }} pendingLabel="Saving..." className="btn-primary w-full">
          Save changes
        </PendingButton>
      </Form>
    </SwimmerFormCard>
  )
}
