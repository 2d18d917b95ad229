import { bookingPayable } from '~/modules/booking/fulfilment.server'
import { campPayable } from '~/modules/camps/fulfilment.server'
import type { Payable, PayableKind } from './payable-contract.server'

/** Every kind of thing the site takes payment for. */
export const PAYABLES: Record<PayableKind, Payable> = { booking: bookingPayable, camp: campPayable }
