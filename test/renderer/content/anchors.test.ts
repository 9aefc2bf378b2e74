import { beforeAll, describe, expect, it } from 'vitest';
import { checkSite } from '../../../scripts/site-check/check-site.js';
import { docsJson, exportFiles, ids, type Exported } from './export-helpers.js';

const API = `---
title: API
---

## Settings

<ParamField path="--max-session-duration" type="number">Flag.</ParamField>

<ParamField body="max_session_duration" type="number">Same name, kebab-cased: made unique.</ParamField>

<ParamField query="onError">Camel case.</ParamField>

<ResponseField name="thumbnails.background" type="string">Dotted.</ResponseField>

<ResponseField name="background.color" type="object">
  <Expandable title="background.color">
    <ResponseField name="light" type="string">Nested.</ResponseField>
    <ResponseField name="dark" type="string">
      <Expandable title="dark">
        <ParamField body="hexCode">Deeper.</ParamField>
      </Expandable>
    </ResponseField>
  </Expandable>
</ResponseField>

<ResponseField name="after">Back at the top level.</ResponseField>

<ParamField header="custom" id="my-own-id">Custom id.</ParamField>

## Settings

<Steps>
  <Step title="Install the CLI">One.</Step>
  <Step title="Settings">Two: shares the heading counter.</Step>
  <Step title="Anchored" id="step-custom">Three.</Step>
</Steps>

<AccordionGroup>
  <Accordion title="All supported languages">Hidden until opened.</Accordion>
</AccordionGroup>

## Config.json options (v2)

## What's new & next

## Read/write access
`;

const LINKS = `---
title: Links
---

[flag](/api#param-max-session-duration) [dup](/api#param-max-session-duration-2) [camel](./api#param-on-error)
[nested](/api#param-background-color-light) [deeper](/api#param-background-color-dark-hex-code)
[step](/api#install-the-cli) [accordion](/api#all-supported-languages)
`;

let site: Exported;

beforeAll(async () => {
  site = await exportFiles({ 'docs.json': docsJson(['api', 'links']), 'api.mdx': API, 'links.mdx': LINKS });
}, 60_000);

describe('anchors: the ids Mintlify gives fields, steps and accordions', () => {
  it('gives ParamField and ResponseField `param-<kebab name>` ids, nested names joined through Expandable', () => {
    const got = ids(site.page('/api'));
    for (const id of [
      'param-max-session-duration',
      'param-max-session-duration-2',
      'param-on-error',
      'param-thumbnails-background',
      'param-background-color',
      'param-background-color-light',
      'param-background-color-dark',
      'param-background-color-dark-hex-code',
      'param-after',
      'my-own-id',
    ]) {
      expect(got).toContain(id);
    }
    expect(site.page('/api')).toContain('<a class="c-field__anchor" href="#param-on-error"');
  });

  it('gives Step titles and Accordions the heading slug of their title, counted with the headings', () => {
    const got = ids(site.page('/api'));
    expect(got).toContain('install-the-cli');
    expect(got).toContain('step-custom');
    expect(got).toContain('all-supported-languages');
    // Two `## Settings` headings and a `Settings` step: settings, settings-2, settings-3 in document order.
    expect(got.filter((id) => /^settings(-\d+)?$/.test(id))).toEqual(['settings', 'settings-2', 'settings-3']);
    expect(new Set(got).size).toBe(got.length);
  });

  it('slugs headings with Mintlify’s rules, not GitHub’s', () => {
    const got = ids(site.page('/api'));
    expect(got).toContain('config-json-options-v2');
    expect(got).toContain('what’s-new-&-next');
    expect(got).toContain('read/write-access');
    expect(site.page('/api')).toContain('id="what’s-new-&amp;-next"');
  });

  it('leaves no cross-page #param, step or accordion link without its target', () => {
    expect(site.page('/links')).toMatch(/href="\/api[^"#]*#param-background-color-dark-hex-code"/);
    const check = checkSite(site.outDir);
    expect(check.brokenLinks).toEqual([]);
    expect(check.missingFragments).toEqual([]);
  });
});
