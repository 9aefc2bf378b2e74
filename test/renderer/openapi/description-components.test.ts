/**
 * Mintlify components in OpenAPI descriptions (issue 39 class 6): Mintlify reads spec text as MDX,
 * so a `<Note>` there is a callout, wherever the description is and however it is indented (a YAML
 * block scalar, a docstring, a component block inside a list). A type in angle brackets stays text.
 */
import { describe, expect, it } from 'vitest';
import { exportedSite, specTabsSite } from './exported-pages.js';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1' },
  servers: [{ url: 'https://notes.test' }],
  paths: {
    '/indented': {
      post: {
        summary: 'Indented note',
        // A docstring: the first line follows the quotes, the others keep the source's indentation.
        description: 'Sends a message.\n\n    <Note>\n    Messages are **kept** for 30 days.\n    </Note>\n\n    Returns the message.',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  // Every line indented alike (a block scalar copied with its indentation).
                  mode: { type: 'string', description: '  The reply mode.\n\n  <Warning>\n  Streaming needs a client that reads events.\n  </Warning>' },
                  items: { type: 'array', items: { type: 'string' }, description: 'A List<String> of names.' },
                  // A component's name that opens nothing (it is never closed) beside HTML: text, the HTML still read.
                  keys: { type: 'string', description: 'Press <Tab> to move, <b>twice</b> to leave.' },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'OK' } },
      },
    },
    '/listed': {
      get: {
        summary: 'Note in a list',
        description: '- First step\n\n    <Tip>Keep the key secret.</Tip>\n\n- Second step',
        responses: { '200': { description: 'OK' } },
      },
    },
    '/lead': {
      get: {
        summary: 'One paragraph with a note',
        description: '  Reads a note. <Info>Cached for a minute.</Info>',
        responses: { '200': { description: 'OK' } },
      },
    },
  },
};

const { html, text } = exportedSite(specTabsSite('Notes', [{ tab: 'API', source: 'notes.yaml', directory: 'api', doc: SPEC }]));

const callout = (kind: string): RegExp => new RegExp(`<div class="c-callout c-callout--${kind}" role="note"[^>]*>[^]*?<div class="c-callout__content">([^]*?)</div></div>`);

describe('components in OpenAPI descriptions', () => {
  it("renders an indented <Note> in an operation's description as the callout, its Markdown read, the text around it kept", () => {
    const page = html('api/indented-note');
    expect(page).not.toContain('&lt;Note&gt;');
    expect(callout('note').exec(page)?.[1]).toContain('Messages are <strong>kept</strong> for 30 days.');
    // The lines after the component are a paragraph, not code: MDX has no indented code blocks.
    expect(page).toContain('<p>Returns the message.</p>');
    expect(page).not.toMatch(/<pre[^>]*>[^]*?Returns the message/);
  });

  it("renders a component in a field's description whose lines are all indented, and leaves a type in angle brackets as text", () => {
    const page = html('api/indented-note');
    expect(page).not.toContain('&lt;Warning&gt;');
    expect(callout('warning').exec(page)?.[1]).toContain('Streaming needs a client that reads events.');
    expect(text('api/indented-note')).toContain('The reply mode.');
    expect(text('api/indented-note')).toContain('A List<String> of names.');
    expect(page).toContain('Press &lt;Tab&gt; to move, <b>twice</b> to leave.');
  });

  it('renders a component block indented inside a list item within that item', () => {
    const page = html('api/note-in-a-list');
    expect(page).not.toContain('&lt;Tip&gt;');
    expect(page).toMatch(/<li><p>First step<\/p>\s*<div class="c-callout c-callout--tip"[^]*?Keep the key secret\.[^]*?<\/li>\s*<li><p>Second step/);
  });

  it('keeps a one-paragraph description holding a component out of the plain-text page lead', () => {
    const page = html('api/one-paragraph-with-a-note');
    expect(page).not.toMatch(/<p class="page-description">[^<]*&lt;Info/);
    expect(callout('info').exec(page)?.[1]).toContain('Cached for a minute.');
  });
});
