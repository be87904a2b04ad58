import { describe, expect, it } from 'vitest';
import { loadConfig } from '@quire/config';
import { budgetFor, OCR_PER_PAGE_MS, PER_PAGE_MS } from './budget.ts';

const config = loadConfig({ EXTRACT_TIMEOUT_MS: '600000', EXTRACT_MAX_MEMORY_MB: '1536' });
const MB = 1024 * 1024;

describe('budgetFor', () => {
  it('scales documents by size, allows more per page up to the configured ceiling', () => {
    const small = budgetFor('pdf', 100_000, config);
    const large = budgetFor('pdf', 40 * MB, config);
    expect(large.timeoutMs).toBeGreaterThan(small.timeoutMs);
    expect(small).toMatchObject({ maxMemoryMb: 1536, perPageMs: PER_PAGE_MS + OCR_PER_PAGE_MS, maxTimeoutMs: 600_000 });
    expect(budgetFor('pdf', 5_000 * MB, config).timeoutMs).toBe(600_000);
  });

  it('allows OCR time per PDF page only while OCR of PDF pages is on', () => {
    const withoutOcr = loadConfig({ EXTRACT_TIMEOUT_MS: '600000', OCR_MAX_PAGES: '0' });
    expect(budgetFor('pdf', 1_000, withoutOcr).perPageMs).toBe(PER_PAGE_MS);
    expect(budgetFor('epub', 1_000, config).perPageMs).toBe(PER_PAGE_MS);
  });

  it('gives audio and video the whole budget, with no page allowance', () => {
    expect(budgetFor('video', 1_000, config)).toEqual({ timeoutMs: 600_000, maxMemoryMb: 1536 });
  });
});
