import { describe, expect, it } from 'vitest'
import { SITE_SETTINGS_SEED } from '~/db/seed.server'
import { isNamed, suppliedText } from './people'

describe('who the public pages show', () => {
  it('leaves out the seeded coach and team, and anyone whose name still carries a bracketed note', () => {
    expect(isNamed(SITE_SETTINGS_SEED.coach)).toBe(false)
    for (const member of SITE_SETTINGS_SEED.team) expect(isNamed(member)).toBe(false)
    // Saved once (no longer marked) but still with the note in the name.
    expect(isNamed({ name: '[Coach name — to be supplied by the lab]', placeholder: false })).toBe(false)
    expect(isNamed({ name: 'Meera Iyer [tbc]', placeholder: false })).toBe(false)
    // A real name still marked a placeholder stays out until staff save it.
    expect(isNamed({ name: 'Meera Iyer', placeholder: true })).toBe(false)
    expect(isNamed({ name: 'Meera Iyer', placeholder: false })).toBe(true)
  })

  it('drops a detail that is still a placeholder, and keeps real text as it is', () => {
    expect(suppliedText('[Short bio — to be supplied by the lab]')).toBe('')
    expect(suppliedText('Sports scientist')).toBe('Sports scientist')
    expect(suppliedText('Swam the 200 m [short course] nationals')).toBe('Swam the 200 m [short course] nationals')
  })
})
