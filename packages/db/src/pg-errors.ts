const FOREIGN_KEY_VIOLATION = '23503';
/** "invalid byte sequence" (a NUL in text) and "untranslatable character" (a \u0000 escape in jsonb). */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/** The constraint a foreign-key violation names, so a service can say which referenced row is missing. */
export function violatedForeignKey(err: unknown): string | undefined {
  const pgError = err as { code?: string; constraint?: string };
  return pgError?.code === FOREIGN_KEY_VIOLATION ? pgError.constraint : undefined;
}

/** Postgres text cannot hold NUL characters: a value that carries one is the client's mistake. */
export function isUnstorableText(err: unknown): boolean {
  return UNSTORABLE_TEXT.has((err as { code?: string })?.code ?? '');
}
