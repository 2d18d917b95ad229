/** The largest value of the database's serial ids: a larger number fails in PostgreSQL instead of finding nothing. */
const MAX_SERIAL = 2_147_483_647

/** A row id as an address or form carries it ('42'), or null for anything that cannot be one. */
export function rowId(value: string | null | undefined): number | null {
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value)) return null
  const id = Number(value)
  return id > 0 && id <= MAX_SERIAL ? id : null
}
