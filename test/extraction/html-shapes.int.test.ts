import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, uploadAndProcess, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.newTenant();
});
afterAll(async () => {
  await stack?.close();
});

const nested = (depth: number) =>
  `<!doctype html><html lang="en"><head><title>Deep page</title></head><body>${'<div>'.repeat(depth)}The text at the bottom of the page.${'</div>'.repeat(depth)}</body></html>`;

async function processed(html: string, name: string) {
  const res = await uploadAndProcess(tenant, Buffer.from(html), name);
  expect(res.status).toBe(201);
  return res.json();
}

describe('HTML too deep or too large for the DOM', () => {
  it('reads a page nested 100,000 <div>s deep (1.1 MB) from its stream of tags, flagged', async () => {
    const material = await processed(nested(100_000), 'deep.html');
    expect(material.status).toBe('active');
    expect(material.metadata).toMatchObject({
      format: 'html',
      extraction: 'whole-page',
      title: 'Deep page',
      fallbackReason: 'the page nests 100002 elements deep, more than the 256 searched for an article',
    });
    expect(material.metadata.extractedText).toBe('The text at the bottom of the page.');
  });

  it('reads 11 MB of nesting the same way, without holding a slot until the budget ends', async () => {
    const material = await processed(nested(1_000_000), 'deeper.html');
    expect(material.status).toBe('active');
    expect(material.metadata.extractedText).toBe('The text at the bottom of the page.');
  });

  it('reads a flat 6 MB page of 100,000 elements whole, every line kept', async () => {
    const rows = Array.from(
      { length: 100_000 },
      (_, i) => `<div>row ${i} of a flat page: fifty more characters of text in it</div>`,
    ).join('');
    const material = await processed(`<!doctype html><html><body>${rows}</body></html>`, 'flat.html');
    expect(material.status).toBe('active');
    expect(material.metadata.fallbackReason).toMatch(/^the page has 100002 elements, more than the 50000/);
    // Too long to be inlined in the material's metadata: read from its text.
    const text = await (await tenant.request(`/api/v1/materials/${material._id}/text`)).text();
    expect(text.startsWith('row 0 of a flat page')).toBe(true);
    expect(text.split('\n\n')).toHaveLength(100_000);
  });
});
