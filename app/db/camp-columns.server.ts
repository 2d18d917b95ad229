import { campBatches, campRegistrations, camps } from '~/db/schema'

/** What a camp charges: its fees, the early-bird deadline and the sibling price. */
export const campPricingColumns = {
  earlyBirdPricePaise: camps.earlyBirdPricePaise,
  regularPricePaise: camps.regularPricePaise,
  earlyBirdEndsAt: camps.earlyBirdEndsAt,
  siblingDiscountKind: camps.siblingDiscountKind,
  siblingDiscountValue: camps.siblingDiscountValue,
}

/** The columns that describe a camp, as the public pages and staff read them. */
export const campColumns = {
  id: camps.id,
  code: camps.code,
  name: camps.name,
  startsOn: camps.startsOn,
  endsOn: camps.endsOn,
  venue: camps.venue,
  ...campPricingColumns,
  isOpen: camps.isOpen,
}

/** The columns that describe a camp's batch. */
export const batchColumns = { id: campBatches.id, campId: campBatches.campId, code: campBatches.code, name: campBatches.name, timeRanges: campBatches.timeRanges, capacity: campBatches.capacity }

/** Who a camp registration is for and what it costs as stored: the swimmer, the contact, the fee and its discounts. */
export const registrationContactAndPriceColumns = {
  swimmerName: campRegistrations.swimmerName,
  email: campRegistrations.email,
  phone: campRegistrations.phone,
  amountPaise: campRegistrations.amountPaise,
  siblingDiscountPaise: campRegistrations.siblingDiscountPaise,
  promoDiscountPaise: campRegistrations.promoDiscountPaise,
}
