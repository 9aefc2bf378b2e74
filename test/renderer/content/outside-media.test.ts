import { beforeAll, describe, expect, it } from 'vitest';
import { count, docsJson, exportFiles, type Exported } from './export-helpers.js';

const PAGE = `---
title: Media
---

<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ?si=abc" title="Product tour" allowFullScreen />

<Frame>
  <iframe src="https://www.loom.com/embed/0123abcd" />
</Frame>

<div className="wrapper">
  <iframe src="https://player.vimeo.com/video/76979871" width="640" />
</div>

<video controls>
  <source src="https://cdn.example.com/demo.mp4" type="video/mp4" />
</video>

<video src="/clip.mp4" controls />

![Architecture diagram](https://images.example.com/arch.png)

[![Build status](https://img.shields.io/badge/build-passing-green)](https://ci.example.com)

<img src="https://cdn.example.com/raw.png" alt="Raw image" />

<Card title="Outside card" img="https://cdn.example.com/card.png" href="/media">Body</Card>

<Frame>
  <img className="block dark:hidden" src="https://cdn.example.com/hero-light.png" />
  <img className="hidden dark:block" src="https://cdn.example.com/hero-dark.png" />
</Frame>

<video className="rounded-xl" src="https://cdn.example.com/tour.mp4" />

<img src="https://cdn.example.com/odd.png" className='x" onmouseover="alert(1)' />

![Local](/images/local.png)
`;

let site: Exported;
let html: string;

beforeAll(async () => {
  site = await exportFiles({ 'docs.json': docsJson(['media']), 'media.mdx': PAGE, 'clip.mp4': 'not really a video', 'images/local.png': 'png' });
  html = site.page('/media');
}, 60_000);

describe('outside media', () => {
  it('replaces every outside iframe or video with a card: title, host, link; no frame is left', () => {
    expect(html).not.toMatch(/<iframe/);
    expect(html).not.toContain('src="https://');
    expect(html).toContain(
      '<span class="c-outside__title">Product tour</span><span class="c-outside__note">Hosted at youtube.com, which this network may not reach.</span>' +
        '<a class="c-outside__link" href="https://www.youtube.com/watch?v=dQw4w9WgXcQ" target="_blank" rel="noopener noreferrer">',
    );
    expect(html).toContain('<span class="c-outside__title">Loom video</span><span class="c-outside__note">Hosted at loom.com');
    expect(html).toContain('href="https://www.loom.com/share/0123abcd"');
    expect(html).toContain('<span class="c-outside__title">Vimeo video</span>');
    expect(html).toContain('href="https://vimeo.com/76979871"');
    expect(html).toContain('<span class="c-outside__title">Video</span><span class="c-outside__note">Hosted at cdn.example.com');
    expect(count(html, 'class="c-outside c-outside--embed"')).toBe(5);
    expect(html).toContain('<span class="rounded-xl"><span class="c-outside c-outside--embed"');
    // A video from the bundle plays as before.
    expect(html).toMatch(/<video src="\/_assets\/clip\.[0-9a-f]+\.mp4" controls>/);
  });

  it('replaces outside images with a placeholder showing alt text, host and link', () => {
    expect(html).toContain('<span class="c-outside__title">Architecture diagram</span><span class="c-outside__note">Hosted at images.example.com, which this network may not reach.</span><a class="c-outside__link" href="https://images.example.com/arch.png"');
    expect(html).toContain('<span class="c-outside__title">Raw image</span>');
    // Inside a link the placeholder adds no link of its own (links cannot nest); the outer one stays.
    expect(html).toMatch(/<a href="https:\/\/ci\.example\.com"[^>]*><span class="c-outside c-outside--image">.*?<span class="c-outside__title">Build status<\/span><span class="c-outside__note">[^<]*<\/span><\/span><\/span><\/a>/);
    expect(html).toContain('<span class="c-outside c-outside--image c-card__img">');
    // A light/dark pair keeps its classes: one notice per theme, as there would be one picture.
    // Around the notice, whose own flex layout a `block` class would undo.
    expect(html).toMatch(/<span class="block dark:hidden"><span class="c-outside c-outside--image">.*?hero-light\.png/);
    expect(html).toMatch(/<span class="hidden dark:block"><span class="c-outside c-outside--image">.*?hero-dark\.png/);
    // Classes are attribute text, never markup.
    expect(html).toContain('<span class="x&quot; onmouseover=&quot;alert(1)"><span class="c-outside c-outside--image">');
    expect(html).not.toContain('onmouseover="alert');
    expect(html).toMatch(/<img src="\/_assets\/images\/local\.[0-9a-f]+\.png" alt="Local"/);
  });

  it('keeps the warnings', () => {
    const codes = site.result.warnings.map((w) => w.code);
    expect(codes.filter((c) => c === 'external-embed')).toHaveLength(3);
    expect(codes.filter((c) => c === 'external-media')).toHaveLength(2);
    expect(codes.filter((c) => c === 'external-image')).toHaveLength(7);
  });
});
