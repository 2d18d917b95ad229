import { campBatches, camps } from '~/db/schema'

/** The columns that describe a camp, as the public pages and staff read them. */
export const campColumns = {
  id: camps.id,
  code: camps.code,
  name: camps.name,
  startsOn: camps.startsOn,
  endsOn: camps.endsOn,
  venue: camps.venue,
  earlyBirdPricePaise: camps.earlyBirdPricePaise,
  regularPricePaise: camps.regularPricePaise,
  earlyBirdEndsAt: camps.earlyBirdEndsAt,
  isOpen: camps.isOpen,
}

/** The columns that describe a camp's batch. */
export const batchColumns = { id: campBatches.id, campId: campBatches.campId, code: campBatches.code, name: campBatches.name, timeRanges: campBatches.timeRanges, capacity: campBatches.capacity }
