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
    expect(count(html, 'class="c-outside c-outside--embed"')).toBe(4);
    // A video from the bundle plays as before.
    expect(html).toMatch(/<video src="\/_assets\/clip\.[0-9a-f]+\.mp4" controls>/);
  });

  it('replaces outside images with a placeholder showing alt text, host and link', () => {
    expect(html).toContain('<span class="c-outside__title">Architecture diagram</span><span class="c-outside__note">Hosted at images.example.com, which this network may not reach.</span><a class="c-outside__link" href="https://images.example.com/arch.png"');
    expect(html).toContain('<span class="c-outside__title">Raw image</span>');
    // Inside a link the placeholder adds no link of its own (links cannot nest); the outer one stays.
    expect(html).toMatch(/<a href="https:\/\/ci\.example\.com"[^>]*><span class="c-outside c-outside--image">.*?<span class="c-outside__title">Build status<\/span><span class="c-outside__note">[^<]*<\/span><\/span><\/span><\/a>/);
    expect(html).toContain('<span class="c-outside c-outside--image c-card__img">');
    expect(html).toMatch(/<img src="\/_assets\/images\/local\.[0-9a-f]+\.png" alt="Local"/);
  });

  it('keeps the warnings', () => {
    const codes = site.result.warnings.map((w) => w.code);
    expect(codes.filter((c) => c === 'external-embed')).toHaveLength(3);
    expect(codes.filter((c) => c === 'external-media')).toHaveLength(1);
    expect(codes.filter((c) => c === 'external-image')).toHaveLength(4);
  });
});
