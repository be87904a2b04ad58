import { z } from 'zod';

/** A number in a query: plain decimal digits, as `0x10`, `+5`, `1e3`, `5.0` or ` 5` are also numbers to JavaScript. */
const DECIMAL = /^[0-9]{1,16}$/;

/**
 * What every `/api` route refuses of a query before its own schema reads it: a parameter it does not declare
 * (a misspelt `limt` would otherwise be ignored and the default served as if asked for), one given more than
 * once (`?limit=1&limit=2` reaches the schema as an array, which it can only call "not a number"), and a number
 * not written in decimal digits (the schemas coerce with `Number()`, which reads `page=0x10` as 16).
 * Each problem is an issue on the parameter's name, so a route's own `invalid` shapes the 400 as usual.
 */
export function queryProblems(query: Record<string, unknown>, schema: z.ZodObject | undefined): z.ZodError | null {
  const declared = Object.keys(schema?.shape ?? {});
  const issues: z.core.$ZodIssue[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (!declared.includes(name)) {
      const takes = declared.length ? `this endpoint takes ${declared.join(', ')}` : 'this endpoint takes none';
      issues.push(issue(name, `Unknown query parameter "${name}": ${takes}`));
    } else if (Array.isArray(value)) {
      issues.push(issue(name, `Query parameter "${name}" was given ${value.length} times; give it once`));
    } else if (isNumber(schema!.shape[name]) && typeof value === 'string' && !DECIMAL.test(value)) {
      issues.push(issue(name, `Query parameter "${name}" must be written in decimal digits, like 16`));
    }
  }
  return issues.length ? new z.ZodError(issues) : null;
}

const issue = (name: string, message: string): z.core.$ZodIssue => ({
  code: 'custom',
  path: [name],
  message,
  input: undefined,
});

/** A query parameter the schema reads as a number (behind `.optional()` or `.default()`). */
function isNumber(schema: unknown): boolean {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) inner = inner.unwrap();
  return inner instanceof z.ZodNumber;
}
