import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACTOR_VERSIONS } from '@quire/extract';
import { imageHeavyPdf, makePdf, sendJson, startTestStack, type Tenant, type TestStack } from '@quire/testkit';
import { createWorkerContext, startWorker } from '@quire/worker';

const search = async (t: Tenant, body: Record<string, unknown>) => {
  const res = await sendJson(t, 'POST', '/api/v1/materials/search', body);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return res.json();
};

async function activeText(t: Tenant, name: string, text: string, folderId?: string) {
  const res = await sendJson(t, 'POST', '/api/v1/materials/upload-and-process', {
    name,
    content: { text },
    ...(folderId ? { folderId } : {}),
  });
  expect(res.status).toBe(201);
  return res.json();
}

/** Filler prose without any of the words the tests search for. */
const filler = (n: number) =>
  Array.from({ length: n }, (_, i) => `Sentence ${i} describes routine classroom logistics and schedules.`).join(' ');

describe('POST /search', () => {
  let stack: TestStack;
  let tenant: Tenant;
  let other: Tenant;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    stack = await startTestStack();
    tenant = await stack.newTenant();
    other = await stack.newTenant();
    ids.photosynthesis = (
      await activeText(
        tenant,
        'Plants',
        'Photosynthesis lets chlorophyll capture light energy and store it as glucose in the leaf.',
      )
    )._id;
    ids.light = (
      await activeText(tenant, 'Optics', 'Light travels fast. Energy comes in many forms. Lenses bend rays.')
    )._id;
    ids.volcano = (
      await activeText(tenant, 'Volcanoes', 'Volcanoes erupt molten rock called magma; cooled lava forms basalt.')
    )._id;
    ids.long = (
      await activeText(
        tenant,
        'Long handbook',
        `${filler(60)} The mitochondria produce adenosine triphosphate for the cell. ${filler(60)}`,
      )
    )._id;
    const pdf = await makePdf([
      'Introduction to the course.',
      'Glaciers carve valleys during ice ages.',
      'Summary of the term.',
    ]);
    const form = new FormData();
    form.append('name', 'Earth science');
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'earth.pdf');
    const res = await tenant.request('/api/v1/materials/upload/file-and-process', { method: 'POST', body: form });
    expect(res.status).toBe(201);
    ids.pdf = (await res.json())._id;
    await activeText(
      other,
      'Their plants',
      'Photosynthesis chlorophyll light energy glucose photosynthesis chlorophyll.',
    );
  });
  afterAll(() => stack?.close());

  it('ranks the passage holding the query terms together first and answers the public shape', async () => {
    const body = await search(tenant, { query: 'light energy' });
    expect(Object.keys(body).sort()).toEqual(['filtered', 'query', 'results', 'scope', 'totalResults']);
    expect(body).toMatchObject({
      query: 'light energy',
      filtered: false,
      scope: { materialIds: null, folderIds: null },
      totalResults: 2,
    });
    const [first, second] = body.results;
    expect(Object.keys(first).sort()).toEqual([
      'chunkIndex',
      'highlights',
      'matchedTerms',
      'material',
      'score',
      'text',
    ]);
    expect(first.material).toEqual({ id: ids.photosynthesis, name: 'Plants', contentType: 'text' });
    expect(first.text).toContain('chlorophyll capture light energy');
    expect(first.chunkIndex).toBe(0);
    expect(second.material.id).toBe(ids.light);
    expect(first.score).toBeGreaterThan(second.score);
    expect(second.score).toBeGreaterThan(0);
    // Relevance in 0..1, as the public service documents it.
    expect(first.score).toBeLessThan(1);
  });

  it('understands web-search syntax: quoted phrases, "or" and -exclusions', async () => {
    const found = async (query: string) =>
      (await search(tenant, { query })).results.map((r: { material: { id: string } }) => r.material.id).sort();
    expect(await found('"energy comes"')).toEqual([ids.light]);
    expect(await found('magma or glaciers')).toEqual([ids.volcano, ids.pdf].sort());
    expect(await found('light -chlorophyll')).toEqual([ids.light]);
    expect(await found('the of and')).toEqual([]);
  });

  it('finds a passage in the middle of a long text and keeps PDF page positions', async () => {
    const long = await search(tenant, { query: 'mitochondria adenosine' });
    expect(long.results).toHaveLength(1);
    expect(long.results[0].material.id).toBe(ids.long);
    expect(long.results[0].chunkIndex).toBeGreaterThan(0);
    expect(long.results[0].text).toContain('mitochondria produce adenosine triphosphate');
    expect(long.results[0].text.length).toBeLessThanOrEqual(1000);

    const glaciers = await search(tenant, { query: 'glacier valleys' });
    expect(glaciers.results[0]).toMatchObject({ page: 2, material: { id: ids.pdf, contentType: 'pdf' } });
    expect(glaciers.results[0].text).toContain('Glaciers carve valleys');
  });

  it('never returns another organization’s material', async () => {
    const body = await search(tenant, { query: 'photosynthesis', topK: 50 });
    expect(body.results.map((r: { material: { id: string } }) => r.material.id)).toEqual([ids.photosynthesis]);
    const theirs = await search(other, { query: 'volcanoes magma' });
    expect(theirs.results).toEqual([]);
  });

  it('answers at most topK passages (5 by default)', async () => {
    const t = await stack.newTenant();
    for (let i = 0; i < 7; i++)
      await activeText(
        t,
        `Ocean ${i}`,
        `Ocean note ${i}: the ocean holds salt water${' and ocean currents'.repeat(i)}.`,
      );
    expect((await search(t, { query: 'ocean' })).results).toHaveLength(5);
    const three = await search(t, { query: 'ocean currents', topK: 3 });
    expect(three.results).toHaveLength(3);
    expect(three.totalResults).toBe(3);
    expect(three.results[0].material.name).toBe('Ocean 6');
    expect((await search(t, { query: 'ocean', topK: 50 })).results).toHaveLength(7);
  });

  it('searches only the given materials or folders, subfolders included', async () => {
    const t = await stack.newTenant();
    const unit = await (await sendJson(t, 'POST', '/api/v1/folders', { name: 'Unit' })).json();
    const lesson = await (
      await sendJson(t, 'POST', '/api/v1/folders', { name: 'Lesson', parentFolderId: unit._id })
    ).json();
    const elsewhere = await (await sendJson(t, 'POST', '/api/v1/folders', { name: 'Elsewhere' })).json();
    const inUnit = await activeText(t, 'In unit', 'Comets have icy tails.', unit._id);
    const inLesson = await activeText(t, 'In lesson', 'Comets orbit the sun.', lesson._id);
    const outside = await activeText(t, 'Outside', 'Comets were once omens.', elsewhere._id);
    const loose = await activeText(t, 'Loose', 'Comets are not asteroids.');
    const found = (body: { results: { material: { id: string } }[] }) => body.results.map((r) => r.material.id).sort();

    const byFolder = await search(t, { query: 'comets', folderIds: [unit._id] });
    expect(found(byFolder)).toEqual([inUnit._id, inLesson._id].sort());
    expect(byFolder).toMatchObject({ filtered: true, scope: { materialIds: null, folderIds: [unit._id] } });
    expect(found(await search(t, { query: 'comets', folderIds: [lesson._id] }))).toEqual([inLesson._id]);
    expect(found(await search(t, { query: 'comets', materialIds: [loose._id, outside._id] }))).toEqual(
      [loose._id, outside._id].sort(),
    );
    expect(found(await search(t, { query: 'comets', materialIds: [loose._id], folderIds: [unit._id] }))).toEqual([]);
    expect(found(await search(t, { query: 'comets', materialIds: [], folderIds: [] }))).toHaveLength(4);

    const foreign = await sendJson(t, 'POST', '/api/v1/materials/search', {
      query: 'comets',
      materialIds: [ids.photosynthesis],
    });
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).message).toBe('Material not found');
  });

  it('drops a deleted material’s chunks', async () => {
    const m = await activeText(tenant, 'Ephemeral', 'Quasars outshine whole galaxies.');
    expect((await search(tenant, { query: 'quasars' })).results).toHaveLength(1);
    expect((await sendJson(tenant, 'DELETE', `/api/v1/materials/${m._id}`)).status).toBe(200);
    expect((await search(tenant, { query: 'quasars' })).results).toEqual([]);
    const left = await stack.db
      .selectFrom('search_passages')
      .select('chunk_index')
      .where('material_id', '=', m._id)
      .execute();
    expect(left).toEqual([]);
  });

  const idsOf = (body: { results: { material: { id: string } }[] }) => body.results.map((r) => r.material.id);

  it('finds a material whose passages hold the query words between them, before materials holding fewer of them', async () => {
    const t = await stack.newTenant();
    const spread = await activeText(
      t,
      'Spread',
      `Tectonic plates drift. ${filler(20)} Subduction zones recycle crust. ${filler(20)} Earthquakes follow faults.`,
    );
    const two = await activeText(
      t,
      'Two',
      `Tectonic maps. ${filler(20)} Cities prepare for earthquakes. ${filler(20)} Nothing else.`,
    );
    const one = await activeText(
      t,
      'One',
      `Tectonic boundaries. ${filler(20)} Rivers cut canyons. ${filler(20)} Nothing more.`,
    );
    const passages = await stack.db
      .selectFrom('search_passages')
      .select('chunk_index')
      .where('material_id', '=', spread._id)
      .execute();
    expect(passages.length).toBeGreaterThanOrEqual(3);

    const body = await search(t, { query: 'tectonic subduction earthquakes', topK: 10 });
    expect(idsOf(body)).toEqual([spread._id, two._id, one._id]);
  });

  it('ranks a rare word above a common one', async () => {
    const t = await stack.newTenant();
    for (let i = 0; i < 8; i++)
      await activeText(t, `Routine ${i}`, `Attendance is taken every morning; attendance matters ${i}.`);
    const commonOnly = await activeText(
      t,
      'Attendance rules',
      'Attendance attendance attendance: attendance is recorded.',
    );
    const rare = await activeText(t, 'Exoplanets', 'Astronomers found an exoplanet orbiting a red dwarf.');
    const body = await search(t, { query: 'attendance exoplanet', topK: 3 });
    expect(idsOf(body)[0]).toBe(rare._id);
    expect(idsOf(body)[1]).toBe(commonOnly._id);
  });

  it('ranks the words side by side above the same words apart', async () => {
    const t = await stack.newTenant();
    for (const topic of ['Wind turbines', 'Tidal power', 'Hydroelectric dams', 'Geothermal wells'])
      await activeText(t, topic, `${topic} make electricity.`);
    // The same words, as often and as many: only their order differs.
    const apart = await activeText(t, 'Apart', 'The panel measured how the solar output changes.');
    const together = await activeText(t, 'Together', 'The solar panel measured how the output changes.');
    const body = await search(t, { query: 'solar panel' });
    expect(idsOf(body)).toEqual([together._id, apart._id]);
    expect(body.results[0].score).toBeGreaterThan(body.results[1].score);
    expect(idsOf(await search(t, { query: '"solar panel"' }))).toEqual([together._id]);
  });

  it('marks the matched words in each passage and names the query words it matched', async () => {
    const body = await search(tenant, { query: 'glacier valleys volcanoes', topK: 10 });
    const glaciers = body.results.find((r: { material: { id: string } }) => r.material.id === ids.pdf);
    expect(glaciers.matchedTerms.sort()).toEqual(['glacier', 'valleys']);
    expect(glaciers.highlights.map((h: { start: number; end: number }) => glaciers.text.slice(h.start, h.end))).toEqual(
      ['Glaciers', 'valleys'],
    );
    const volcano = body.results.find((r: { material: { id: string } }) => r.material.id === ids.volcano);
    expect(volcano.matchedTerms).toEqual(['volcanoes']);
    expect(volcano.highlights).toEqual([{ start: 0, end: 'Volcanoes'.length }]);
  });

  it('takes a misspelled word for the organization’s nearest word, never another organization’s', async () => {
    const body = await search(tenant, { query: 'photosynthsis' });
    expect(idsOf(body)).toEqual([ids.photosynthesis]);
    expect(body.results[0].matchedTerms).toEqual(['photosynthsis']);
    expect(body.results[0].text.slice(body.results[0].highlights[0].start, body.results[0].highlights[0].end)).toBe(
      'Photosynthesis',
    );
    const t = await stack.newTenant();
    await activeText(t, 'Unrelated', 'Knitting needles and wool.');
    expect((await search(t, { query: 'photosynthsis' })).results).toEqual([]);
  });

  it('returns one passage per material unless more are asked for', async () => {
    const t = await stack.newTenant();
    const many = await activeText(
      t,
      'Many',
      Array.from({ length: 6 }, (_, i) => `Nebula ${i}. ${filler(20)}`).join(' '),
    );
    const one = await activeText(t, 'One', 'A nebula is a cloud of dust.');
    const grouped = await search(t, { query: 'nebula', topK: 5 });
    expect(idsOf(grouped).sort()).toEqual([many._id, one._id].sort());
    const ungrouped = await search(t, { query: 'nebula', topK: 5, passagesPerMaterial: 4 });
    expect(idsOf(ungrouped).filter((id) => id === many._id)).toHaveLength(4);
    expect(idsOf(ungrouped)).toContain(one._id);
    const bad = await sendJson(t, 'POST', '/api/v1/materials/search', { query: 'nebula', passagesPerMaterial: 0 });
    expect(bad.status).toBe(400);
  });

  it('finds a text written with combining marks by the word as typed, and the other way round', async () => {
    const t = await stack.newTenant();
    const decomposed = (
      await activeText(t, 'Kindersitze', 'Besonders bei Babyschalen sollte gepru\u0308ft werden, ob der Gurt reicht.')
    )._id;
    const composed = (await activeText(t, 'Zinsen', 'Die H\u00f6he der f\u00e4lligen Zinsen steigt.'))._id;
    const found = async (query: string) =>
      (await search(t, { query })).results.map((r: { material: { id: string } }) => r.material.id);
    expect(await found('gepr\u00fcft')).toEqual([decomposed]);
    expect(await found('"Babyschalen sollte gepr\u00fcft"')).toEqual([decomposed]);
    expect(await found('"fa\u0308lligen Zinsen"')).toEqual([composed]);
  });

  it('rejects bad bodies with 400', async () => {
    const bad: unknown[] = [
      {},
      { query: '' },
      { query: '   ' },
      { query: 'x'.repeat(1001) },
      { query: 'a', topK: 0 },
      { query: 'a', topK: 51 },
      { query: 'a', topK: '5' },
      { query: 'a', topK: 2.5 },
      { query: 'a', materialIds: 'm' },
      { query: 'a', folderIds: [''] },
      { query: 'a', extra: 1 },
    ];
    for (const body of bad) {
      const res = await sendJson(tenant, 'POST', '/api/v1/materials/search', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('reprocessing', () => {
  let stack: TestStack;
  let tenant: Tenant;
  beforeAll(async () => {
    stack = await startTestStack({ worker: false });
    tenant = await stack.newTenant();
  });
  afterAll(() => stack?.close());

  /** Runs a worker until the material settles, then stops it, so the test sees the states in between. */
  async function runWorkerUntilSettled(id: string) {
    const ctx = await createWorkerContext(stack.config, { db: stack.db, store: stack.store });
    const worker = startWorker(ctx);
    try {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const m = await (await tenant.request(`/api/v1/materials/${id}`)).json();
        if (m.status === 'active' || m.status === 'error' || Date.now() > deadline) return m;
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await worker.stop(5_000);
      await ctx.close();
    }
  }

  const derivedKeys = async (id: string) =>
    (
      await stack.db
        .selectFrom('material_objects')
        .select('key')
        .where('material_id', '=', id)
        .where('kind', '=', 'derived')
        .execute()
    ).map((r) => r.key);

  it('keeps the previous text, images and chunks until the new result replaces them all at once', async () => {
    const form = new FormData();
    form.append('name', 'Figures');
    form.append('file', new Blob([await imageHeavyPdf(1, 200)], { type: 'application/pdf' }), 'figures.pdf');
    const created = await (await tenant.request('/api/v1/materials/upload', { method: 'POST', body: form })).json();
    const first = await runWorkerUntilSettled(created._id);
    expect(first.status).toBe('active');
    expect(first.metadata.extractedText).toBe('Page 1');
    expect(first.metadata.images).toHaveLength(1);
    expect(first.metadata.extractor).toEqual(EXTRACTOR_VERSIONS.pdf);
    const oldKeys = await derivedKeys(created._id);
    expect(oldKeys.length).toBeGreaterThan(0);
    expect(
      (await search(tenant, { query: 'page' })).results.map((r: { material: { id: string } }) => r.material.id),
    ).toEqual([created._id]);

    // The same original, read by "a newer extractor": here, different bytes under the same key, with the
    // material's pin (its size) moved to them, since the worker refuses an original that is not the one pinned.
    const newer = await makePdf(['Zebras graze on the savanna.']);
    await stack.store.put(created.content.s3Key, newer);
    await stack.db
      .updateTable('materials')
      .set({ content: JSON.stringify({ ...created.content, s3Url: undefined, fileSize: newer.length }) })
      .where('id', '=', created._id)
      .execute();
    const res = await sendJson(tenant, 'POST', `/api/v1/materials/${created._id}/reprocess`);
    expect(res.status).toBe(200);
    const during = await res.json();
    expect(during.status).toBe('processing');
    expect(during.metadata.extractedText).toBe('Page 1');
    expect(during.metadata.images).toHaveLength(1);
    expect((await fetch(during.metadata.images[0].s3Url)).status).toBe(200);
    for (const key of oldKeys) expect(await stack.store.stat(key)).not.toBeNull();
    expect((await search(tenant, { query: 'page' })).results).toEqual([]);
    const twice = await sendJson(tenant, 'POST', `/api/v1/materials/${created._id}/reprocess`);
    expect(twice.status).toBe(409);
    expect((await twice.json()).message).toMatch(/processing/);

    const after = await runWorkerUntilSettled(created._id);
    expect(after.status).toBe('active');
    expect(after.metadata.extractedText).toBe('Zebras graze on the savanna.');
    expect(after.metadata.images).toEqual([]);
    expect(after.metadata.extractor).toEqual(EXTRACTOR_VERSIONS.pdf);
    for (const key of oldKeys) expect(await stack.store.stat(key)).toBeNull();
    expect((await search(tenant, { query: 'page' })).results).toEqual([]);
    const zebras = await search(tenant, { query: 'zebras savanna' });
    expect(zebras.results).toHaveLength(1);
    expect(zebras.results[0]).toMatchObject({ page: 1, chunkIndex: 0, material: { id: created._id } });
    const chunks = await stack.db
      .selectFrom('search_passages')
      .select('text')
      .where('material_id', '=', created._id)
      .execute();
    expect(chunks).toEqual([{ text: 'Zebras graze on the savanna.' }]);
  });
});
