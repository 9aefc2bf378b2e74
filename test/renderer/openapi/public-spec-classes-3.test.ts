/**
 * Classes of problems the third sweep over public specs showed (2026-11-27, third session, see
 * docs/api-reference.md "Third sweep over public specs"), each reproduced by a small spec of our
 * own (sweep3-fixtures.ts) and checked on the exported HTML.
 */
import { describe, expect, it } from 'vitest';
import { exportedSite, specTabsSite } from './exported-pages.js';
import { AVRO_ASYNC_2, AVRO_ASYNC_3, BODY_FIELD_31, FORMS_30, PROSE_30, UNIONS_30, VALUES_31 } from './sweep3-fixtures.js';

const files = specTabsSite('Sweep 3', [
  { tab: 'Unions', source: 'unions.json', directory: 'unions', doc: UNIONS_30 },
  { tab: 'Values', source: 'values.json', directory: 'values', doc: VALUES_31 },
  { tab: 'Prose', source: 'prose.json', directory: 'prose', doc: PROSE_30 },
  { tab: 'Issues', source: 'issues.json', directory: 'issues', doc: BODY_FIELD_31 },
  { tab: 'Forms', source: 'forms.json', directory: 'forms', doc: FORMS_30 },
  { tab: 'Kafka', kind: 'asyncapi', source: 'kafka.json', directory: 'kafka', doc: AVRO_ASYNC_3 },
  { tab: 'Orders', kind: 'asyncapi', source: 'orders.json', directory: 'orders', doc: AVRO_ASYNC_2 },
]);

const { html, text, curl, playgroundOf } = exportedSite(files);

/** The labels of the choice tabs among a page's fields, in order. */
const tabs = (slug: string): string[] => {
  const page = html(slug);
  const fields = page.slice(page.indexOf('<main'), page.indexOf('c-example'));
  return [...fields.matchAll(/role="tab"[^>]*>([^<]*)<\/button>/g)].map((m) => (m[1] ?? '').replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
};

describe('unions and references as generators write them', () => {
  it('makes a reference with `nullable` beside it (Fern) nullable', () => {
    const t = text('unions/get-an-item');
    expect(t).toMatch(/status enum<string> \| null query Available options: PENDING, DONE/);
    expect(t).toMatch(/comment object \| null Left when the item was done/);
  });

  it('titles untitled choices by the value that tells them apart, the one property each holds, or a number', () => {
    // Fern's inline allOf choices and utoipa's inside-tagged enum: by the tag's value.
    expect(tabs('unions/ingest-events')).toEqual(['trace-create', 'score-create']);
    const item = tabs('unions/get-an-item');
    expect(item.slice(0, 2)).toEqual(['Simple', 'Timed']);
    // utoipa's outside-tagged enum: by the variant's property.
    expect(item.slice(2, 4)).toEqual(['Conflict', 'NotFound']);
    // Nothing to tell them apart: numbered, not `object`, `object`.
    expect(item.slice(4)).toEqual(['Option 1', 'Option 2']);
  });

  it('titles choices alike by type by what each is as shown', () => {
    expect(tabs('values/create-a-stage')).toEqual(['string', 'array', 'string', 'integer', 'string[]', 'integer[]', 'string<date-time>', 'now']);
  });

  it('makes a field whose choices take null (GitHub\'s `nullable` on each choice) nullable', () => {
    expect(text('values/create-a-stage')).toMatch(/value string \| string\[\] \| null body string array/);
  });
});

describe('objects with fields of their own beside choices', () => {
  it('shows the object\'s own fields in each choice and puts them in the example', () => {
    const t = text('unions/create-a-payment');
    expect(tabs('unions/create-a-payment')).toEqual(['Card', 'Bank']);
    expect(t).toMatch(/Card Bank amount integer body required Example: 100 email string body phone string body card string body required/);
    expect(t).toMatch(/"amount": 100,\s*"email": "<string>",\s*"phone": "<string>",\s*"card": "tok_1"/);
  });

  it('titles "at least one of" choices (`anyOf: [{required: [email]}, {required: [phone]}]`) by the fields each requires', () => {
    const t = text('unions/create-a-contact');
    expect(tabs('unions/create-a-contact')).toEqual(['email', 'phone']);
    expect(t).toMatch(/email phone email string body required phone string body name string body email string body phone string body required name string body/);
  });
});

describe('values and bounds as specs write them', () => {
  it('reads choices that each document one value (Discord\'s `{const, title, description}`) as one list of options with their words', () => {
    const t = text('values/create-a-stage');
    expect(t).toMatch(/privacy_level enum<integer> \| null body 1 PUBLIC: Visible to everyone\. 2 GUILD_ONLY: Visible to members only\. Available options: 1, 2/);
    expect(tabs('values/create-a-stage')).not.toContain('PUBLIC');
  });

  it('shows 64-bit integer bounds as written, not rounded', () => {
    expect(text('values/create-a-stage')).toContain('Required range: -9223372036854775808 <= x <= 9223372036854775807');
  });

  it('reads an open enum (`anyOf: [string, {enum}]`, OpenAI\'s model fields) as one type with its known values', () => {
    const t = text('values/create-a-stage');
    expect(t).toMatch(/model string body The model to use\. Known values: gpt-4o, o3-mini \(others are accepted too\) Example: gpt-4o/);
    expect(t).not.toMatch(/model string body string string/);
    expect(html('values/create-a-stage')).toContain('&quot;model&quot;: &quot;gpt-4o&quot;');
  });

  it('quotes a blank example, which showed as nothing', () => {
    expect(text('values/create-a-stage')).toContain('stop string body Example: "\\n"');
  });

  it('puts `if`/`then`/`else` rules in words under the fields they name', () => {
    // The text reader leaves a space where a code span ends before `:` or starts after `(`.
    const t = text('values/place-an-order').replace(/ :/g, ':').replace(/\( /g, '(');
    expect(t).toContain('postal_code string body When country is US: pattern ^[0-9]{5}$. Otherwise (country is not US): pattern ^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$.');
    expect(t).toContain('state string body Required when country is US.');
    // A field only a branch defines is listed.
    expect(t).toContain('province enum<string> body Otherwise (country is not US): one of ON, QC. Available options: ON, QC');
    expect(html('values/place-an-order')).toMatch(/&quot;country&quot;: &quot;US&quot;,\s*&quot;postal_code&quot;: &quot;&lt;string&gt;&quot;,\s*&quot;state&quot;/);
  });

  it('shows no key pattern for a pattern any key matches (TypeBox\'s Record is `^(.*)$`)', () => {
    const t = text('values/list-prices');
    expect(t).toMatch(/\{key\} number \{key\} string Key pattern: \^x-/);
    expect(t).not.toContain('^(.*)$');
  });

  it('leaves array-only keywords off schemas that are not arrays (Kubernetes\' `uniqueItems` on every parameter)', () => {
    const t = text('values/list-maps');
    expect(t).toMatch(/namespace string path required Query Parameters/);
    expect(t).toMatch(/names string\[\] query Items must be unique/);
  });
});

describe('descriptions and recursion as specs write them', () => {
  it('keeps an HTML description (Stripe\'s `<p>`) out of the page\'s plain-text description and renders it in the body', () => {
    const page = html('prose/create-a-customer');
    expect(page).not.toContain('&lt;p&gt;');
    expect(page).toMatch(/<p>Creates a new <code>customer<\/code> object\.<\/p>/);
  });

  it('cuts a schema recurring through an `allOf` wrapper where it recurs, by its name', () => {
    const t = text('prose/retrieve-run-trace');
    // As where Span is met directly: its own array, typed by name, not expanded again.
    expect(t).toMatch(/rootSpan object The run's span\. Show properties id string children Span\[\] Request example/);
    expect(t).not.toContain('Refers back to array');
  });
});

describe('AsyncAPI payloads written in Avro', () => {
  it('reads an Avro record as the fields it holds, with an example made from them', () => {
    const t = text('kafka/usersignedup');
    expect(t).toMatch(/Payload Who signed up userId integer<int64> required Id of the user plan enum<string> required Available options: FREE, PRO nickname string \| null default: null signedUpAt integer<timestamp-millis> required referrer UserSignedUp \| null/);
    expect(t).not.toContain('<record>');
    expect(t).toMatch(/"userId"\s*:\s*123\s*,\s*"plan"\s*:\s*"FREE"/);
  });

  it('reads AsyncAPI 2\'s message-level schemaFormat the same way', () => {
    expect(text('orders/orders')).toMatch(/id string required lines object\[\] required/);
    expect(text('orders/orders')).toContain('{key} integer<int32>');
  });
});

describe('form bodies with an encoding', () => {
  it('sends the fields an `encoding` declares deepObject with brackets (Stripe\'s metadata[key], expand[]), in examples and the playground', () => {
    const c = curl('forms/create-a-customer');
    // The text reader spaces highlighted tokens apart.
    const compact = c.replace(/\s+(?=[[\]])/g, '');
    expect(compact).toContain("--data-urlencode 'metadata[order_id]=6735'");
    expect(compact).toContain("--data-urlencode 'expand[]=customer'");
    expect(compact).toContain("--data-urlencode 'address[geo][lat]=48.8'");
    expect(c).not.toContain('metadata={');
    expect(text('forms/create-a-customer')).toMatch(/"metadata\[order_id\]"\s*:\s*"6735"/);
    // Without an encoding, as before: one pair per list item, an object as its JSON.
    expect(c).toContain('--data-urlencode tags=a');
    expect(c).toContain('--data-urlencode tags=b');
    expect(c).toContain(`--data-urlencode 'extra={"note":"hi"}'`);
    expect(playgroundOf('forms/create-a-customer').body?.deep).toEqual(['metadata', 'expand', 'address']);
  });
});

describe('request examples of a JSON body with a field named `body`', () => {
  it('does not encode that field a second time in the JavaScript example (httpsnippet wraps every `body` key)', () => {
    // The text reader spaces tokens apart; compare without spaces.
    const t = text('issues/create-an-issue').replace(/\s+/g, '');
    expect(t).toContain("body:JSON.stringify({title:'Crash',body:'Itcrashesonstart.',message:{body:{html:'<p>Hi</p>'}}})");
    expect(t).not.toContain("JSON.stringify('Itcrashesonstart.')");
    expect(html('issues/create-an-issue')).not.toContain('body__docs_appliance__');
  });
});
