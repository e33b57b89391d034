// How PostgreSQL's errors are told apart by the store.

/**
 * Whether the server refused a statement and rolled it back, the connection staying usable: a data
 * error (22), an integrity violation (23), a serialization failure or deadlock (40), a value too large
 * (54). Anything else (no code: the connection broke; 57: the server is shutting down or cancelled
 * it) leaves unknown whether an autocommit statement committed.
 */
export function statementRolledBack(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^(22|23|40|54)[0-9A-Z]{3}$/.test(code);
}

export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: string; constraint?: string };
  return e.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
