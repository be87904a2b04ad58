import { z } from 'zod';

/** A UTF-16 surrogate without its other half: JSON's `\ud800` escape can spell one, UTF-8 cannot store one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What every `/api` route refuses of a parsed body (JSON, or a multipart form's text fields) before its own schema
 * reads it: a string or a key holding a lone surrogate. Postgres refuses one in a json column (a 500) and turns
 * one into U+FFFD in a text column, so two different ids (`e\ud800`, `e\udc00`) would become the same row.
 * Each problem is an issue on the field's path, so a route's own `invalid` shapes the 400 as usual.
 */
export function textProblems(body: unknown): z.ZodError | null {
  const issues: z.core.$ZodIssue[] = [];
  const visit = (value: unknown, path: (string | number)[]) => {
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value))
        issues.push(issue(path, 'must not contain a lone UTF-16 surrogate (\\ud800-\\udfff)'));
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, [...path, index]));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (LONE_SURROGATE.test(key))
          issues.push(issue([...path, key], 'a key must not contain a lone UTF-16 surrogate'));
        else visit(item, [...path, key]);
      }
    }
  };
  visit(body, []);
  return issues.length ? new z.ZodError(issues) : null;
}

const issue = (path: (string | number)[], message: string): z.core.$ZodIssue => ({
  code: 'custom',
  path,
  message,
  input: undefined,
});
