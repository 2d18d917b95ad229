/**
 * Whether a database error (or one it was caused by) is a unique index refusing a duplicate: the
 * index's name in PostgreSQL's constraint field, or in the message PGlite gives.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  return isViolation(error, '23505', constraint)
}

/**
 * Whether a database error (or one it was caused by) is an exclusion constraint refusing an overlap
 * (SQLSTATE 23P01): a kit or a person already somewhere else at that time.
 */
export function isExclusionViolation(error: unknown, constraint: string): boolean {
  return isViolation(error, '23P01', constraint)
}

function isViolation(error: unknown, sqlState: string, constraint: string) {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const candidate = current as { code?: string; constraint?: string; message?: string }
    if (candidate.code === sqlState && (candidate.constraint === constraint || candidate.message?.includes(constraint))) return true
  }
  return false
}
