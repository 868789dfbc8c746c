/**
 * Prisma passes startsWith/contains terms to LIKE without escaping its wildcards, so "%" would
 * match everything. Escaped here, with PostgreSQL's default escape character.
 */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Case-insensitive prefix match of `term` on a field, as a Prisma filter. */
export function startsWithInsensitive(term: string) {
  return { startsWith: escapeLike(term), mode: "insensitive" as const };
}

/** Case-insensitive substring match of `term` on a field, as a Prisma filter. */
export function containsInsensitive(term: string) {
  return { contains: escapeLike(term), mode: "insensitive" as const };
}
