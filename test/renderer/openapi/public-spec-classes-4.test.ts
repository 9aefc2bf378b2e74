/**
 * Classes of problems the fourth sweep over public specs showed (2026-11-27, third session, see
 * docs/api-reference.md "Fourth sweep over public specs"), each reproduced by a small spec of our
 * own (sweep4-fixtures.ts) and checked on the exported HTML.
 */
import { describe, expect, it } from 'vitest';
import { exportedSite, specTabsSite } from './exported-pages.js';
import { REPEATS_30, SPLIT_SAMPLES_30, WEBHOOK_SECURITY_31 } from './sweep4-fixtures.js';

const files = specTabsSite(
  'Sweep 4',
  [
    { tab: 'Repeats', source: 'repeats.json', directory: 'repeats', doc: REPEATS_30 },
    { tab: 'Mail', source: 'mail.json', directory: 'mail', doc: WEBHOOK_SECURITY_31 },
    { tab: 'Droplets', source: 'do/openapi.json', directory: 'droplets' },
  ],
  Object.fromEntries(Object.entries(SPLIT_SAMPLES_30).map(([file, doc]) => [file, JSON.stringify(doc)])),
);

const { html, text } = exportedSite(files);

/** Every id attribute on a page, in document order. */
const ids = (page: string): string[] => [...page.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1] ?? '');

describe('anchors of fields that repeat on a page', () => {
  const page = (): string => html('repeats/replace-a-batch');

  it('gives every element of the page its own id', () => {
    const all = ids(page());
    expect(all.filter((id) => id.startsWith('param-')).length).toBeGreaterThan(10);
    expect(all.filter((id, i) => all.indexOf(id) !== i)).toEqual([]);
  });

  it('keeps the `param-…` ids, numbered in page order as on hand-written pages', () => {
    const all = ids(page());
    for (const id of ['param-id', 'param-type', 'param-id-2', 'param-batch-type', 'param-batch-type-2', 'param-batch-items-id', 'param-meta-note']) expect(all).toContain(id);
  });

  it("adds the anchors Mintlify's generated pages use: by section, through each choice's tab", () => {
    const all = ids(page());
    // The body's and the response's `id` (the same schema) and each choice's `type` are told apart by name, not by number.
    for (const id of ['body-id', 'response-id', 'body-batch-one-of-0-type', 'body-batch-one-of-1-type', 'body-batch-one-of-1-items-id', 'body-meta-one-of-1-note', 'response-batch-one-of-1-items-type']) {
      expect(all).toContain(id);
    }
    // Each is the field's own link: the `param-…` anchor of the same field.
    expect(page()).toContain('<a class="c-field__anchor" id="body-batch-one-of-1-type" href="#param-batch-type-2"');
    expect(page()).toContain('<a class="c-field__anchor" id="response-id" href="#param-id-3"');
    // Parameters keep one anchor each: the `param-…` one is what Mintlify's parameters are linked by here.
    expect(all.filter((id) => /^(parameter|query|path)-(?!parameters$)/.test(id))).toEqual([]);
  });
});

describe("webhooks and the document's security", () => {
  it("keeps the document's credentials for operations, not for webhooks that name none", () => {
    expect(text('mail/emails/send-an-email')).toMatch(/Authorizations Authorization string header required Bearer authentication header/);
    const sent = text('mail/webhook-events/email-sent');
    expect(sent).toMatch(/Payload application\/json type/);
    expect(sent).not.toMatch(/Authorizations|Bearer/);
  });

  it("shows a webhook's own security", () => {
    const bounced = text('mail/webhook-events/email-bounced');
    expect(bounced).toMatch(/Authorizations svix-signature string header required The signature of the delivery/);
    expect(bounced).not.toMatch(/Bearer/);
  });
});

describe('operations and code samples written in files of their own', () => {
  it("reads an operation given by `$ref`, and each `$ref` sample of its `x-codeSamples`, relative to the operation's file", () => {
    const t = text('droplets/droplets/retrieve-an-existing-droplet');
    expect(t).toContain('curl -X GET "https://api.droplets.test/v2/droplets/3164494"');
    expect(t).toContain('droplet, _, err := client.Droplets.Get(ctx, 3164494)');
    expect(t).toMatch(/Request example cURL Go Ruby curl/);
    expect(t).toMatch(/client\.droplets\.find\( ?id: 3164494\)/);
    // The page is the operation's file's: its title, tag and parameters; the samples replace the generated examples.
    expect(t).toMatch(/Headers X-Trace string header A trace id\. Path Parameters droplet_id integer path required/);
    expect(t).not.toContain('curl --request GET');
  });
});
