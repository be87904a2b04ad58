import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEpub, startTestStack, uploadAndProcess, type Tenant, type TestStack } from '@quire/testkit';

let stack: TestStack;
let tenant: Tenant;
beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.newTenant();
});
afterAll(() => stack?.close());

describe('an EPUB chapter nested thousands of elements deep', () => {
  it('is read flat, and the book is active with every chapter', async () => {
    const depth = 5_000;
    const deep = `${'<div>'.repeat(depth)}Words at the bottom of the well.${'</div>'.repeat(depth)}`;
    const book = await makeEpub([
      { title: 'Shallow', paragraphs: ['An ordinary first chapter.'] },
      { title: 'Deep', paragraphs: [deep] },
      { title: 'Last', paragraphs: ['An ordinary last chapter.'] },
    ]);
    const res = await uploadAndProcess(tenant, book, 'deep.epub', { extractImages: true });
    const material = await res.json();
    expect(res.status, JSON.stringify(material.material?.metadata?.error ?? material)).toBe(201);
    expect(material.status).toBe('active');
    expect(material.metadata.chapters.map((c: { title: string }) => c.title)).toEqual(['Shallow', 'Deep', 'Last']);
    expect(material.metadata.extractedText).toBe(
      'Shallow\n\nAn ordinary first chapter.\n\nDeep\n\nWords at the bottom of the well.\n\nLast\n\nAn ordinary last chapter.',
    );
  });
});
