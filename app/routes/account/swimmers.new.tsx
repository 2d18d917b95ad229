import { getFormProps } from '@conform-to/react'
import { getZodConstraint } from '@conform-to/zod/v4'
import { Form, href } from 'react-router'
import type { Route } from './+types/swimmers.new'
import { FormAlert, PendingButton, useLazyValidatedForm } from '~/components/form-controls'
import { SwimmerFormCard, SwimmerFormFields } from '~/components/swimmer-fields'
import { labToday } from '~/lib/lab-time'
import { pageMeta } from '~/lib/seo'
import { redirectWithToast } from '~/web/toast.server'
import { REGISTRATION_DEFAULTS } from '~/modules/forms/choices'
import { swimmerSchema } from '~/modules/swimmers/schemas'
import { addSwimmer, addSwimmerRefusal } from '~/modules/swimmers/swimmers.server'
import { requireUser } from '~/web/auth.server'
import { readForm } from '~/web/form-data.server'
import { submitOnlyForm } from '~/web/page-forms.server'

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, { title: 'Add a swimmer', description: 'Add a swimmer to your account.', path: href('/swimmers/new') }),
  { name: 'robots', content: 'noindex' },
]

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request)
  return { constraint: getZodConstraint(swimmerSchema(labToday())), refusal: await addSwimmerRefusal(user.id) }
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request)
  return submitOnlyForm(await readForm(request), swimmerSchema(labToday()), async (value) => {
    const swimmer = await addSwimmer(user, value)
    return redirectWithToast(href('/swimmers'), { type: 'success', title: 'Swimmer added', description: `${swimmer.name} is on your account.` })
  })
}

// The registration form's choices to start from (one object: the form starts again when its defaults change).
const { whoSwims: _, ...SWIMMER_DEFAULTS } = REGISTRATION_DEFAULTS

export default function NewSwimmer({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useLazyValidatedForm(() => import('~/modules/swimmers/schemas').then((schemas) => schemas.swimmerSchema(labToday())), {
    constraint: loaderData.constraint,
    lastResult: actionData,
    defaultValue: SWIMMER_DEFAULTS,
  })
  return (
    <SwimmerFormCard title="Add a swimmer">
      {loaderData.refusal ? (
        <p className="mt-4 text-ink">{loaderData.refusal}</p>
      ) : (
        <>
          <p className="mt-2 text-muted">About the swimmer: their name, age and swimming, as on registration.</p>
          <Form method="post" {...getFormProps(form)} className="mt-6 space-y-6">
            <FormAlert id={form.errorId} errors={form.errors} />
            <SwimmerFormFields fields={fields} declaration />
            <PendingButton when={{ action: href('/swimmers/new'), untilLoaded: true }} pendingLabel="Adding..." className="btn-primary w-full">
              Add swimmer
            </PendingButton>
          </Form>
        </>
      )}
    </SwimmerFormCard>
  )
}
