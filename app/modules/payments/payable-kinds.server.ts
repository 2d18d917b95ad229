import type { Payable, PayableKind } from './payable-contract.server'

let registered: Record<PayableKind, Payable> | undefined

/**
 * Every kind of thing the site takes payment for, each from its own module (a booking, a camp
 * registration), given at start-up by registerPayables (app/modules/payables/payables.server.ts): the
 * payments module calls them without importing the modules above it.
 */
export function usePayableKinds(payables: Record<PayableKind, Payable>) {
  registered = payables
}

/** What a payment for this kind of thing means for it. */
export function payableKind(kind: PayableKind): Payable {
  if (!registered) throw new Error('The payable kinds have not been registered yet')
  return registered[kind]
}
