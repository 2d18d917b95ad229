/**
 * Whether a database error (or one it was caused by) is a unique index refusing a duplicate: the
 * index's name in PostgreSQL's constraint field, or in the message PGlite gives.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const candidate = current as { code?: string; constraint?: string; message?: string }
    if (candidate.code === '23505' && (candidate.constraint === constraint || candidate.message?.includes(constraint))) return true
  }
  return false
}
