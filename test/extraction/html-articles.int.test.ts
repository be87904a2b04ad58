import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACTOR_VERSIONS } from '@quire/extract';
import {
  sendJson,
  startHttpServer,
  waitForStatus,
  startTestStack,
  uploadAndProcess,
  type Tenant,
  type TestHttpServer,
  type TestStack,
} from '@quire/testkit';

const LABELLED_PAGES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/bench/html-data');

const HEADLINE = 'Harbour wall repairs finish a year early';
const PARAGRAPHS = [
  'The repairs to the old harbour wall at Porthmellin finished on Monday, a year ahead of the schedule the council published when the work began.',
  'Engineers replaced more than four hundred granite blocks that the winter storms of 2023 had loosened, and rebuilt the slipway that the lifeboat uses at low tide.',
  'The council said the work cost less than the budget of three million pounds because a mild winter let the crews work through January and February.',
  'Fishing boats that moved to the neighbouring harbour during the works are expected to return over the next fortnight, once the pontoons are back in place.',
];
const LIST = ['new granite facing on the outer wall', 'a rebuilt lifeboat slipway', 'lighting along the quay'];

/** Text of each kind of page furniture; none of it may reach the material's text. */
const BOILERPLATE: Record<string, string> = {
  'menu without <nav>': 'Crosswords and puzzles',
  'cookie banner': 'We use cookies to personalise content and ads',
  byline: 'Chief Reporter, Harbour Times',
  'share bar': 'Share on Facebook',
  'ad label': 'Advertisement',
  'newsletter prompt': 'Sign up for our morning briefing',
  'related links': 'Ten castles to visit this summer',
  comments: 'First! Great to see this finally done',
  sidebar: 'Most popular this week',
  footer: 'All rights reserved by Harbour Times Media',
};

const ARTICLE_PAGE = `<!doctype html>
<html lang="en-GB"><head>
<meta charset="utf-8">
<title>${HEADLINE} | Harbour Times</title>
<meta property="og:site_name" content="Harbour Times">
<meta name="author" content="Morwenna Trelawny">
<meta property="article:published_time" content="2025-05-12T08:00:00+01:00">
<link rel="canonical" href="https://harbourtimes.example/news/harbour-wall-repairs">
</head><body>
<div class="cookie-banner"><p>${BOILERPLATE['cookie banner']} and to analyse our traffic.</p><button>Accept</button></div>
<div class="masthead"><a href="/">Harbour Times</a>
  <div class="menu"><a href="/news">News</a> <a href="/sport">Sport</a> <a href="/puzzles">${BOILERPLATE['menu without <nav>']}</a> <a href="/jobs">Jobs</a></div></div>
<div class="layout">
  <div class="story">
    <h1>${HEADLINE}</h1>
    <div class="byline">By Morwenna Trelawny, ${BOILERPLATE.byline}</div>
    <div class="share"><a href="#">${BOILERPLATE['share bar']}</a> <a href="#">Post on X</a> <a href="#">Email</a></div>
    <div class="story-body">
      <p>${PARAGRAPHS[0]}</p>
      <p>${PARAGRAPHS[1]}</p>
      <div class="ad-slot"><span>${BOILERPLATE['ad label']}</span></div>
      <h2>What was built</h2>
      <ul>${LIST.map((item) => `<li>${item}</li>`).join('')}</ul>
      <p>${PARAGRAPHS[2]}</p>
      <div class="promo"><a href="/newsletters">${BOILERPLATE['newsletter prompt']}, free every weekday.</a></div>
      <table><tr><th>Stage</th><th>Finished</th></tr><tr><td>Outer wall</td><td>March 2025</td></tr><tr><td>Slipway</td><td>May 2025</td></tr></table>
      <p>${PARAGRAPHS[3]}</p>
    </div>
    <div class="related-stories"><h3>Read next</h3><ul><li><a href="/a">${BOILERPLATE['related links']}</a></li><li><a href="/b">Ferry timetable changes for the summer</a></li></ul></div>
    <div id="comments"><h3>Comments</h3><div class="comment"><b>quayside</b><p>${BOILERPLATE.comments}.</p></div></div>
  </div>
  <div class="sidebar"><h3>${BOILERPLATE.sidebar}</h3><ol><li><a href="/c">Seal spotted in the marina</a></li><li><a href="/d">Car park charges to rise</a></li></ol></div>
</div>
<div class="site-footer"><a href="/about">About us</a> <a href="/privacy">Privacy</a><p>${BOILERPLATE.footer}.</p></div>
</body></html>`;

/** A short notice: no block of it is long enough to be an article, so Readability's pick is refused. */
const NOTICE_PAGE = `<!doctype html><html lang="en"><head><title>Office closed</title></head><body>
<div class="menu"><a href="/">Home</a> <a href="/contact">Contact</a></div>
<h1>Office closed on Monday</h1><p>The office is closed on Monday for the bank holiday and opens again on Tuesday at nine.</p>
</body></html>`;

const THREAD_PAGE = `<!doctype html><html lang="en"><head><title>Why does my bread collapse in the oven? - Baking Forum</title><link rel="canonical" href="/t/bread-collapse/4411"></head><body>
<div class="topbar"><a href="/">Baking Forum</a> <a href="/latest">Latest</a> <a href="/top">Top</a></div>
<h1>Why does my bread collapse in the oven?</h1>
<div class="thread">
  <div class="post"><div class="meta">dough_boy · 2 days ago</div><div class="post-body"><p>My loaves rise beautifully in the tin and then sink as soon as they go into the oven. The top ends up flat and the crumb is dense near the crust. I use strong white flour and dried yeast and prove them in a warm airing cupboard.</p></div></div>
  <div class="post"><div class="meta">crumbshot · 2 days ago</div><div class="post-body"><p>That sounds like over-proving. The gluten has stretched as far as it can before baking, so the oven spring has nowhere to go and the loaf collapses. Try proving for twenty minutes less and poke it first: it is ready when the dent springs back slowly.</p><p>A warm airing cupboard speeds proving up a lot, so the times in most recipes will be too long for you.</p></div></div>
  <div class="post"><div class="meta">dough_boy · 1 day ago</div><div class="post-body"><p>Proved for twenty-five minutes less today and the loaf held its shape in the oven. Thanks, the poke test made all the difference to how I judge it.</p></div></div>
</div>
<div class="suggested"><h3>Suggested topics</h3><a href="/t/1">Rye starter smells of acetone</a></div>
</body></html>`;

/** A page in KOI8-R that says so only in its server's Content-Type, as many older sites do. */
const RUSSIAN = [
  'Ремонт старой гавани закончился в понедельник, на год раньше срока, который совет объявил в начале работ.',
  'Инженеры заменили более четырёхсот гранитных блоков, расшатанных зимними штормами, и перестроили слип для спасательной лодки.',
];
const KOI8_PAGE = iconv.encode(
  `<!doctype html><html><head><title>Гавань</title></head><body><h1>Гавань отремонтирована</h1>${RUSSIAN.map((p) => `<p>${p}</p>`).join('')}</body></html>`,
  'koi8-r',
);

let stack: TestStack;
let tenant: Tenant;
let web: TestHttpServer;
let site: string;

beforeAll(async () => {
  const html = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  web = await startHttpServer({
    '/article.html': html(ARTICLE_PAGE),
    '/notice.html': html(NOTICE_PAGE),
    '/thread.html': html(THREAD_PAGE),
    '/koi8.html': (_req: unknown, res: import('node:http').ServerResponse) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=KOI8-R' }).end(KOI8_PAGE),
  });
  site = `http://127.0.0.1:${web.port}`;
  stack = await startTestStack({ config: { URL_FETCH_ALLOW_HOSTS: `127.0.0.1:${web.port}` } });
  tenant = await stack.newTenant();
});
afterAll(async () => {
  await stack?.close();
  await web?.close();
});

async function fromUrl(url: string) {
  const res = await sendJson(tenant, 'POST', '/api/v1/materials/upload-and-process', { name: url, content: { url } });
  expect(res.status).toBe(201);
  return res.json();
}

/** Words only, so line breaks and list bullets do not decide whether a sentence is there. */
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

describe('a web page by URL keeps its article, not the page around it', () => {
  let material: any;
  beforeAll(async () => {
    material = await fromUrl(`${site}/article.html`);
  });

  it.each(Object.entries(BOILERPLATE))('drops the %s', (_kind, text) => {
    expect(material.metadata.extractedText).not.toContain(text);
  });

  it('keeps every paragraph of the article, in order, starting with the headline', () => {
    const text: string = material.metadata.extractedText;
    expect(text.startsWith(`${HEADLINE}\n\n${PARAGRAPHS[0]}`)).toBe(true);
    const positions = PARAGRAPHS.map((p) => text.indexOf(p));
    expect(positions.every((at) => at >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('keeps the subheading, each list item on its own line and the table by rows', () => {
    const text: string = material.metadata.extractedText;
    expect(text).toContain('\n\nWhat was built\n\n');
    for (const item of LIST) expect(text).toMatch(new RegExp(`^\\* ${item}$`, 'm'));
    expect(text).toMatch(/^Stage\s+Finished$/m);
    expect(text).toMatch(/^Outer wall\s+March 2025$/m);
  });

  it('fills the metadata the page carries and records the new extractor', () => {
    expect(material.metadata).toMatchObject({
      format: 'html',
      extraction: 'article',
      title: HEADLINE,
      lang: 'en-GB',
      canonicalUrl: 'https://harbourtimes.example/news/harbour-wall-repairs',
      siteName: 'Harbour Times',
      author: 'Morwenna Trelawny',
      publishedAt: '2025-05-12T07:00:00.000Z',
      extractor: EXTRACTOR_VERSIONS.text,
    });
    expect(material.metadata.fallbackReason).toBeUndefined();
  });
});

describe('pages that are not one article', () => {
  it('keeps the whole text of a page Readability refuses, less its menu, and says so', async () => {
    const material = await fromUrl(`${site}/notice.html`);
    expect(material.status).toBe('active');
    expect(material.metadata).toMatchObject({ extraction: 'whole-page', title: 'Office closed', lang: 'en' });
    expect(material.metadata.fallbackReason).toMatch(/under 500/);
    expect(material.metadata.extractedText).toBe(
      'Office closed on Monday\n\nThe office is closed on Monday for the bank holiday and opens again on Tuesday at nine.',
    );
  });

  it('keeps every post of a thread, not only the one Readability picks, and resolves its canonical URL against the page address', async () => {
    const material = await fromUrl(`${site}/thread.html`);
    const text = words(material.metadata.extractedText);
    for (const post of [
      'My loaves rise beautifully in the tin',
      'That sounds like over-proving',
      'A warm airing cupboard speeds proving up',
      'Proved for twenty-five minutes less today',
    ]) {
      expect(text).toContain(words(post));
    }
    expect(text).not.toContain(words('Rye starter smells of acetone'));
    expect(text).not.toContain('dough_boy');
    expect(material.metadata.canonicalUrl).toBe(`${site}/t/bread-collapse/4411`);
  });
});

describe('the charset a page is served with', () => {
  it('decodes a page that declares its charset only in the HTTP header, and again when it is reprocessed', async () => {
    const material = await fromUrl(`${site}/koi8.html`);
    expect(material).toMatchObject({ status: 'active', metadata: { encoding: 'koi8-r' } });
    expect(material.content.mimeType).toBe('text/html; charset=KOI8-R');
    for (const p of RUSSIAN) expect(material.metadata.extractedText).toContain(p);

    const reprocess = await sendJson(tenant, 'POST', `/api/v1/materials/${material._id}/reprocess`);
    expect(reprocess.status).toBe(200);
    expect((await reprocess.json()).status).toBe('processing');
    const again = await waitForStatus(tenant, material._id, ['active', 'error']);
    expect(again).toMatchObject({ status: 'active', metadata: { encoding: 'koi8-r' } });
    expect(again.updatedAt).not.toBe(material.updatedAt);
    for (const p of RUSSIAN) expect(again.metadata.extractedText).toContain(p);
  });
});

describe('HTML files uploaded directly', () => {
  it('are read as articles too', async () => {
    const res = await uploadAndProcess(tenant, Buffer.from(ARTICLE_PAGE), 'harbour.html');
    expect(res.status).toBe(201);
    const material = await res.json();
    expect(material).toMatchObject({
      contentType: 'text',
      metadata: { format: 'html', extraction: 'article', author: 'Morwenna Trelawny' },
    });
    for (const p of PARAGRAPHS) expect(material.metadata.extractedText).toContain(p);
    for (const text of Object.values(BOILERPLATE)) expect(material.metadata.extractedText).not.toContain(text);
  });

  it('lose no line of the marked article text on any page of the benchmark set', async () => {
    const pages = (await fs.readdir(LABELLED_PAGES)).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThanOrEqual(15);
    await Promise.all(
      pages.map(async (page) => {
        const res = await uploadAndProcess(tenant, await fs.readFile(path.join(LABELLED_PAGES, page)), page);
        expect(res.status, page).toBe(201);
        const text = words((await res.json()).metadata.extractedText);
        const gold = (await fs.readFile(path.join(LABELLED_PAGES, page.replace(/\.html$/, '.txt')), 'utf8'))
          .split('\n')
          .filter((line) => line.trim());
        for (const line of gold) expect(text, `${page}: ${line}`).toContain(words(line));
      }),
    );
  });
});
