import { DateTime } from 'luxon';
import { z } from 'zod';

/**
 * A date or time query parameter of the analytics and usage endpoints, read as ISO 8601 by luxon: no zone
 * means UTC, an offset is converted, seconds may be left out. A date alone is the first millisecond of that
 * UTC day for the start of a range and its last (`T23:59:59.999Z`) for the end, so both days are included.
 */
export const rangeInstant = (name: string, edge: 'start' | 'end') => {
  const message = `${name} must be one ISO 8601 date or timestamp, e.g. 2025-01-07 or 2025-01-07T00:00:00.000Z`;
  return z
    .string({ error: message })
    .meta({
      description: `ISO 8601; a date alone means the ${edge === 'start' ? 'start' : 'end (23:59:59.999)'} of that UTC day`,
      examples: [edge === 'start' ? '2025-01-07' : '2025-01-07T23:59:59.999Z'],
    })
    .transform((value, ctx) => {
      const parsed = DateTime.fromISO(value, { zone: 'utc' });
      if (!parsed.isValid) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      const dateOnly = !/t/i.test(value);
      return (dateOnly && edge === 'end' ? parsed.endOf('day') : parsed).toJSDate();
    });
};
