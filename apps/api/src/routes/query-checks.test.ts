import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { queryProblems } from './query-checks.ts';

const schema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().optional(),
  search: z.string().optional(),
});

describe('queryProblems: numbers', () => {
  it.each(['0x10', '+5', '1e3', ' 5', '5 ', '5.0', '-1', '0b11', 'Infinity', ''])(
    'refuses %j: a number is written in decimal digits',
    (value) => {
      const problems = queryProblems({ page: value }, schema);
      expect(problems?.issues).toEqual([
        expect.objectContaining({
          path: ['page'],
          message: 'Query parameter "page" must be written in decimal digits, like 16',
        }),
      ]);
    },
  );

  it('takes decimal digits, behind optional and default alike, and leaves text parameters alone', () => {
    expect(queryProblems({ page: '16', limit: '5' }, schema)).toBeNull();
    expect(queryProblems({ search: '0x10' }, schema)).toBeNull();
    expect(queryProblems({ limit: '+5' }, schema)?.issues[0]?.path).toEqual(['limit']);
  });
});
