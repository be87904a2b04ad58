import { describe, expect, it } from 'vitest';
import { extractHtmlPage } from './html-article.ts';

const prose = (topic: string, count = 5) =>
  Array.from(
    { length: count },
    (_, i) =>
      `<p>Paragraph ${i + 1} on ${topic} goes on for a while, in the plain sentences of an article that a reader came to the page to read.</p>`,
  ).join('\n');

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><title>Tide tables</title></head><body>${body}</body></html>`;

describe('extractHtmlPage: boilerplate around the article', () => {
  it('leaves out share bars, newsletter and cookie notices, embeds, buttons, related lists and comment sections named by their class', () => {
    const { text, metadata } = extractHtmlPage(
      page(`<div class="cookie-consent">We use cookies to improve your experience on this site, accept them all.</div>
      <div class="wrapper"><article><h1>Tide tables</h1>
        <div class="share-buttons"><span>Share on Facebook</span> <span>Share by e-mail</span></div>
        ${prose('tides')}
        <div class="embed-post"><p>Look at the waves on the pier this morning, what a sight from up here on the cliffs!</p></div>
        <div class="action-buttons"><p>Keep a copy of this page in your reading list for the weekend ahead of you.</p></div>
        ${prose('currents', 2)}
        <div class="newsletter-box"><p>Never miss a story again: sign up for our weekly newsletter today and get more.</p></div>

        <section class="related-articles"><h3>More stories</h3><p>How the moon moves the sea, a long explainer from last year with maps.</p></section>
      </article>
      <div id="comments"><p>Great article, thanks for writing it! I always wondered how tides work on the coast.</p></div>
      </div>`),
    );
    expect(metadata.extraction).toBe('article');
    expect(text).toContain('Paragraph 1 on tides');
    expect(text).toContain('Paragraph 5 on tides');
    for (const boilerplate of [
      'We use cookies',
      'Share on Facebook',
      'weekly newsletter',
      'How the moon moves',
      'Great article',
      'what a sight',
      'Keep a copy of this page',
    ]) {
      expect(text).not.toContain(boilerplate);
    }
  });

  it('keeps an article whose wrapper has a boilerplate-sounding class, since it holds the page prose', () => {
    const { text } = extractHtmlPage(
      page(`<div class="post tag-tides tag-sea sticky-sidebar-parent"><h1>Tide tables</h1>${prose('tides')}</div>
      <div class="sidebar"><p>Other posts in this blog about the weather and the sea, from the archive.</p></div>`),
    );
    expect(text).toContain('Paragraph 3 on tides');
    expect(text).not.toContain('Other posts in this blog');
  });

  it('leaves out hidden elements', () => {
    const { text } = extractHtmlPage(
      page(`<article><h1>Tide tables</h1>${prose('tides')}
      <div style="display: none">Please enable JavaScript to view the comments powered by a service.</div>
      <p hidden>A hidden paragraph that a reader never sees on the page at all, whatever its length.</p></article>`),
    );
    expect(text).toContain('Paragraph 2 on tides');
    expect(text).not.toContain('enable JavaScript');
    expect(text).not.toContain('hidden paragraph');
  });

  it('drops a short "read more" link line and a list of links inside the article, and keeps a sentence with a link', () => {
    const { text } = extractHtmlPage(
      page(`<article><h1>Tide tables</h1>${prose('tides', 3)}
      <p><em>Read more</em>: <a href="/a">How the moon pulls the sea</a></p>
      ${prose('currents', 3)}
      <p>The full tables are published by <a href="/office">the hydrographic office</a> every year in spring, for each port.</p>
      <ul><li><a href="/1">Moon</a></li><li><a href="/2">Sea</a></li><li><a href="/3">Coast</a></li></ul></article>`),
    );
    expect(text).not.toContain('How the moon pulls the sea');
    expect(text).toContain('published by the hydrographic office');
    expect(text).not.toMatch(/^\s*\* Moon$/m);
  });

  it('drops the date, byline and reading time above the text, and the prompts and credits below it', () => {
    const { text } = extractHtmlPage(
      page(`<article><h1>Tide tables</h1>
      <div class="info"><span>24.05.2021, 14:30</span></div><div class="who">By Ines Duarte</div><div>4 min read</div>
      ${prose('tides')}
      <figure><img src="x.jpg"><figcaption>Photo: Ines Duarte</figcaption></figure>
      <p>Also interesting:</p><p>Share this article</p><p>Updated 25 May 2021</p><div>Service</div><div>Contact and imprint</div></article>`),
    );
    expect(text).toContain('Tide tables');
    expect(text).toContain('Paragraph 1 on tides');
    expect(text).toContain('Paragraph 5 on tides');
    for (const boilerplate of [
      '24.05.2021',
      'By Ines Duarte',
      '4 min read',
      'Photo: Ines',
      'Also interesting',
      'Share this',
      'Updated 25 May',
    ]) {
      expect(text).not.toContain(boilerplate);
    }
  });

  it('knows dates above the text in the languages of the pages it reads', () => {
    for (const date of ['16 marca 2021', '3 de março de 2022', '12 settembre 2020', '5 de mayo de 2019']) {
      const { text } = extractHtmlPage(
        page(`<article><h1>Tide tables</h1><div class="when">${date}</div>${prose('tides')}</article>`),
      );
      expect(text).toContain('Paragraph 1 on tides');
      expect(text).not.toContain(date);
    }
  });

  it('ends the article at a line that opens suggestions of other articles or the comments, with what follows it', () => {
    const teaser = (title: string) =>
      `<h3>${title}</h3><p>${title}: a teaser of another article runs on for a sentence or two, long enough to read like prose here.</p>`;
    const { text } = extractHtmlPage(
      page(`<article><h1>Tide tables</h1>${prose('tides')}
      <h2>You may also like</h2>${teaser('Moon and sea')}${teaser('Storm surges')}
      <h2>2 Comments</h2><p>Great article, thanks for writing it, I always wondered how the tides work on our coast.</p></article>`),
    );
    expect(text).toContain('Paragraph 5 on tides');
    for (const tail of ['You may also like', 'Moon and sea', 'Storm surges', '2 Comments', 'Great article']) {
      expect(text).not.toContain(tail);
    }
  });

  it('knows such lines in the languages of the pages it reads', () => {
    for (const heading of ['Zum Weiterlesen', 'Verwandte Beiträge', 'À lire aussi', 'Czytaj także', 'Most read']) {
      const { text } = extractHtmlPage(
        page(`<article><h1>Tide tables</h1>${prose('tides')}<h3><span>${heading}</span></h3>
        <p>Moon and sea: a teaser of another article runs on for a sentence or two, long enough to read like prose.</p></article>`),
      );
      expect(text).toContain('Paragraph 5 on tides');
      expect(text).not.toContain(heading);
      expect(text).not.toContain('Moon and sea');
    }
  });

  it('does not end the article at such a line near its top, or at a line that only starts like one', () => {
    const { text } = extractHtmlPage(
      page(`<article><h1>Tide tables</h1><p>Comments</p>${prose('tides', 3)}
      <p>Related: <a href="/moon">the moon</a> and the tides follow each other closely around the year, month by month.</p>
      ${prose('currents', 3)}</article>`),
    );
    expect(text).toContain('Paragraph 1 on tides');
    expect(text).toContain('Related: the moon and the tides');
    expect(text).toContain('Paragraph 3 on currents');
  });

  it('drops the lines inside the text that point to other articles, and keeps a sentence that starts with the same words', () => {
    const { text } = extractHtmlPage(
      page(`<article><h1>Tide tables</h1>${prose('tides', 3)}
      <p><strong>Read more:</strong> <a href="/moon">How the moon moves the sea</a></p>
      <p>Czytaj też: Czy morze jest coraz cieplejsze?</p>
      ${prose('currents', 3)}
      <p>Read more about the tides in the harbour office, which keeps the tables of the last hundred years for anyone.</p>
      ${prose('waves', 2)}</article>`),
    );
    expect(text).toContain('Paragraph 3 on tides');
    expect(text).toContain('Paragraph 1 on currents');
    expect(text).toContain('Read more about the tides in the harbour office');
    expect(text).not.toContain('How the moon moves');
    expect(text).not.toContain('Czytaj też');
  });

  it('drops captions that carry a picture credit, above, inside and below the text, and keeps sentences naming an agency', () => {
    const { text } = extractHtmlPage(
      page(`<article><h1>Tide tables</h1>
      <figure><img src="a.jpg"><figcaption>Fishermen mend their nets on the quay at low tide. Photograph: Ines Duarte/Getty Images</figcaption></figure>
      ${prose('tides', 3)}
      <p>The harbour master at the spring tide, when the water reached the top of the wall (REUTERS/Ana Lima)</p>
      <p>Reuters reported that the tables were wrong once, in 1998, and the office has checked them twice a year ever since.</p>
      <p>The office names its one source: a tide gauge at the end of the pier that has recorded the water since 1890.</p>
      ${prose('currents', 3)}
      <div>Boats in the outer harbour at dusk. Foto: Jan Berg</div></article>`),
    );
    expect(text).toContain('Paragraph 3 on currents');
    for (const caption of [
      'Fishermen mend their nets',
      'The harbour master at the spring tide',
      'Boats in the outer harbour',
    ]) {
      expect(text).not.toContain(caption);
    }
    expect(text).toContain('Reuters reported that the tables were wrong once');
    expect(text).toContain('The office names its one source: a tide gauge');
  });

  it('keeps the text of a page without an article, without its navigation and footer, flagged as the whole page', () => {
    const { text, metadata } = extractHtmlPage(
      page(
        `<nav><a href="/">Home</a> <a href="/about">About us</a></nav><div class="content"><h1>Opening hours</h1><p>Open daily from nine to five.</p></div><footer>Imprint and privacy policy</footer>`,
      ),
    );
    expect(metadata.extraction).toBe('whole-page');
    expect(text).toContain('Open daily from nine to five.');
    expect(text).not.toContain('Imprint');
    expect(text).not.toContain('About us');
  });
});

describe('extractHtmlPage: the article around the block Readability takes', () => {
  it('keeps the paragraphs beside a boxed block (a FAQ) when they hold more prose than the box', () => {
    const answers = Array.from(
      { length: 4 },
      (_, i) => `<h3>Question ${i + 1}?</h3><p>Answer ${i + 1}, ${'in a list, of commas, '.repeat(12)}ends.</p>`,
    ).join('');
    const intro = Array.from(
      { length: 10 },
      (_, i) =>
        `<p>Story paragraph ${i + 1} tells the reader about the harbour and its boats in a long sentence that keeps going for a good while</p>`,
    ).join('');
    const { text, metadata } = extractHtmlPage(
      page(`<main><div class="wrap">${intro}<div class="faq"><h2>Frequently asked</h2><div class="faq-content">${answers}</div></div>
      <p>Closing paragraph of the story says goodbye to the harbour and its boats in a long sentence that keeps going on</p></div></main>`),
    );
    expect(metadata.extraction).toBe('article');
    expect(text).toContain('Answer 1, in a list');
    expect(text).toContain('Story paragraph 1 tells');
    expect(text).toContain('Closing paragraph of the story');
  });
});

describe("extractHtmlPage: the page's own description points at its article", () => {
  const described = (description: string, body: string) =>
    `<!doctype html><html lang="en"><head><title>Harbour news</title><meta name="description" content="${description}"></head><body>${body}</body></html>`;

  it('keeps the lead set above the article body in a block of its own', () => {
    const lead = 'The harbour master announced on Monday that the old pier will close for repairs until spring.';
    const { text } = extractHtmlPage(
      described(
        lead,
        `<header class="story-head"><h1>Old pier to close</h1><div class="intro-block"><strong>${lead}</strong></div></header>
        <div class="story-body">${prose('the pier', 6)}</div>`,
      ),
    );
    expect(text).toContain(lead);
    expect(text).toContain('Paragraph 1 on the pier');
    expect(text.indexOf(lead)).toBeLessThan(text.indexOf('Paragraph 1 on the pier'));
  });

  it('keeps the lead when it sits in a block named like furniture, and finds it by any of the descriptions', () => {
    const lead =
      'Die Dekarbonisierungsstrategieentwicklung der Hafenverwaltung beginnt mit dem alten Pier im Frühjahr.';
    const { text } = extractHtmlPage(
      `<!doctype html><html lang="de"><head><title>Pier</title><meta name="description" content="Nachrichten aus dem Hafen">
      <meta property="og:description" content="${lead}"></head><body>
      <div class="intro-widget"><p>${lead}</p></div><div class="story-body">${prose('the pier', 6)}</div></body></html>`,
    );
    expect(text).toContain(lead);
    expect(text).toContain('Paragraph 1 on the pier');
  });

  it('finds the article again around the description when another block of the page was taken for it', () => {
    const notice = Array.from(
      { length: 6 },
      (_, i) =>
        `<p>Notice ${i + 1}: offers, partners, cards, fees, terms, rates, and conditions apply, as set out, in full, on our policy page, which, as always, you can read, print, or save.</p>`,
    ).join('');
    const { text } = extractHtmlPage(
      described(
        'Ferry crossings to the island will run twice an hour from May, the operator said.',
        `<div id="account"><div class="disclosure">${notice}</div></div>
        <main><div class="story"><p>Ferry crossings to the island will run twice an hour from May, the operator said on Friday</p>
        <p>The new timetable doubles the service that islanders have asked for since the last boat was retired</p>
        <p>Crews for the extra crossings are being trained now and the second boat arrives from the yard in April</p>
        <p>The operator expects the busiest weeks of summer to need a third boat and is looking for one to lease</p>
        <p>Tickets bought for the old timetable stay valid and can be exchanged at the harbour office</p></div></main>`,
      ),
    );
    expect(text).toContain('Ferry crossings to the island will run twice');
    expect(text).toContain('Tickets bought for the old timetable');
    expect(text).not.toContain('Notice 1: offers');
  });
});

describe('extractHtmlPage: the posts of a thread', () => {
  it('keeps every post, each without its furniture and its pointers to other pages', () => {
    const part = (n: number, i: number) =>
      `<p>Answer ${n}, part ${i}: the tide tables give, for every day of the month, the hours of high and low water, and the height the sea reaches at each, in metres above the chart datum.</p>`;
    const post = (n: number) => `<div class="answer"><div class="votes">${n * 7}</div><div class="post-text">
      ${[1, 2, 3].map((i) => part(n, i)).join('')}${n === 1 ? part(n, 4) : ''}
      <p>Read more: <a href="/moon-${n}">The moon and the sea</a></p>
      <div class="share-links"><a href="/s">Share answer ${n}</a> <a href="/f">Follow answer ${n}</a></div>
    </div><div class="user-card">answered by sailor ${n}</div></div>`;
    const { text, metadata } = extractHtmlPage(
      page(`<main><h1>How do I read tide tables?</h1>${post(1)}<div class="ad">Ad</div>${post(2)}${post(3)}</main>`),
    );
    expect(metadata.extraction).toBe('article');
    for (const n of [1, 2, 3]) {
      expect(text).toContain(`Answer ${n}, part 3`);
      expect(text).not.toContain(`Share answer ${n}`);
    }
    expect(text).not.toContain('Read more');
  });
});
