import { describe, expect, it } from 'vitest'
import { describeChanges } from './changes'

describe('the changes of an audit entry, as staff read them', () => {
  it('formats paise as rupees, basis points as a percentage, and an absent value as none', () => {
    expect(describeChanges({ pricePaise: 30_000_00, regularPricePaise: 35_000_00 }, { pricePaise: 28_000_00, regularPricePaise: null })).toEqual([
      { field: 'Price', before: '₹30,000.00', after: '₹28,000.00' },
      { field: 'Regular price', before: '₹35,000.00', after: 'none' },
    ])
    expect(describeChanges({ gstRateBasisPoints: 1800, gstin: '' }, { gstRateBasisPoints: 1250, gstin: '29ABCDE1234F1Z5' })).toEqual([
      { field: 'GST rate', before: '18%', after: '12.5%' },
      { field: 'GSTIN', before: '(empty)', after: '“29ABCDE1234F1Z5”' },
    ])
  })

  it('lists only the nested fields that differ, counting list positions from 1', () => {
    const member = (name: string, placeholder: boolean) => ({ name, role: 'Coach', bio: 'Bio', placeholder })
    expect(describeChanges({ team: [member('A', true), member('B', true)] }, { team: [member('A', true), member('Meera', false)] })).toEqual([
      { field: 'Team 2 › name', before: '“B”', after: '“Meera”' },
      { field: 'Team 2 › placeholder', before: 'yes', after: 'no' },
    ])
    expect(describeChanges({ socialLinks: { linkedin: '' } }, { socialLinks: { linkedin: 'https://linkedin.com/lab' } })).toEqual([
      { field: 'Social links › LinkedIn', before: '(empty)', after: '“https://linkedin.com/lab”' },
    ])
  })

  it('shows instants in Bangalore time, and copes with an entry that has only one side', () => {
    expect(describeChanges({ disabledAt: null }, { disabledAt: '2030-01-01T04:30:00.000Z' })).toEqual([{ field: 'Disabled at', before: 'none', after: '10:00 AM IST on 1 January 2030' }])
    expect(describeChanges(null, { closed: '09:00' })).toEqual([{ field: 'Closed', before: 'none', after: '“09:00”' }])
    expect(describeChanges({ date: '2030-01-05' }, null)).toEqual([{ field: 'Date', before: '“2030-01-05”', after: 'none' }])
  })
})
