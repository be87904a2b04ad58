// NUL and unpaired UTF-16 surrogates are valid in a JS string but refused by Postgres jsonb; PDFs deliver both.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A copy of a JSON value that Postgres jsonb accepts: unstorable characters become U+FFFD. */
export function jsonSafe<T>(value: T): T {
  if (typeof value === 'string') return value.replace(UNSTORABLE, '\ufffd') as T;
  if (Array.isArray(value)) return value.map(jsonSafe) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [jsonSafe(key), jsonSafe(item)])) as T;
  }
  return value;
}
