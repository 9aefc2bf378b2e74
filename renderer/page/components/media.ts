/** Frame (caption, hint), Latex (KaTeX at build time), Mermaid (diagram source for the local script). */
import { escapeHtml } from '../html.js';
import { renderMath } from '../math.js';
import type { ComponentRenderer } from './call.js';

export const mediaComponents: Record<string, ComponentRenderer> = {
  Frame: (c) => {
    const caption = c.str('caption');
    const hint = c.str('hint');
    return (
      `<figure class="c-frame">${hint ? `<p class="c-frame__hint">${escapeHtml(hint)}</p>` : ''}` +
      `<div class="c-frame__content">${c.children()}</div>` +
      (caption ? `<figcaption class="c-frame__caption">${escapeHtml(caption)}</figcaption>` : '') +
      `</figure>`
    );
  },
  Latex: (c) => {
    const tex = (c.el.raw ?? '').trim();
    c.state.usesMath = true;
    const display = c.el.block;
    const html = renderMath(tex, display);
    return display ? `<div class="c-math c-math--display">${html}</div>` : `<span class="c-math">${html}</span>`;
  },
  Mermaid: (c) => {
    const chart = c.str('chart') ?? (c.el.raw ?? '').trim();
    c.state.usesMermaid = true;
    return `<pre class="mermaid c-mermaid">${escapeHtml(chart)}</pre>`;
  },
};
