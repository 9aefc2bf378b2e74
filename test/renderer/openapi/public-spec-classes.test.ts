/**
 * Classes of problems public OpenAPI/AsyncAPI documents showed (the sweep of 2026-11-27, see
 * docs/api-reference.md), each reproduced by a small spec of our own and checked on the exported
 * HTML.
 */
import { describe, expect, it } from 'vitest';
import { exportedSite, specTabsSite } from './exported-pages.js';
import { stringify } from 'yaml';
import { CALLBACKS_31, FASTAPI_31, KEYWORDS_31, PETSTORE_XML, REQUESTS_31, SWAGGER_FORMS, TRAINS_32 } from './sweep-fixtures.js';

const files = specTabsSite(
  'Sweep',
  [
    { tab: 'Swagger', source: 'swagger.json', directory: 'swagger', doc: SWAGGER_FORMS },
    { tab: 'Requests', source: 'requests.json', directory: 'requests', doc: REQUESTS_31 },
    { tab: 'Trains', source: 'trains.yaml', directory: 'trains', doc: TRAINS_32 },
    { tab: 'Streams', source: 'streams.json', directory: 'streams', doc: CALLBACKS_31 },
    { tab: 'Lights', kind: 'asyncapi', source: 'lights.yaml', directory: 'lights' },
    { tab: 'Rooms', kind: 'asyncapi', source: 'rooms.yaml', directory: 'rooms' },
    { tab: 'Split', source: 'api/openapi.yaml', directory: 'split' },
    { tab: 'FastAPI', source: 'fastapi.json', directory: 'fastapi', doc: FASTAPI_31 },
    { tab: 'Keywords', source: 'keywords.json', directory: 'keywords', doc: KEYWORDS_31 },
    { tab: 'Petstore', source: 'petstore.json', directory: 'petstore', doc: PETSTORE_XML },
  ],
  {
    // A spec split into files as Redocly's layout does: path items in paths/, their refs relative to them.
    'api/openapi.yaml': stringify({ openapi: '3.1.0', info: { title: 'Split', version: '1' }, servers: [{ url: 'https://split.test' }], paths: { '/users/{id}': { $ref: './paths/user.yaml' } } }),
    'api/paths/user.yaml': stringify({
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        summary: 'Get a user',
        responses: { '200': { description: 'The user', content: { 'application/json': { schema: { $ref: '../components/schemas/User.yaml' } } } }, '404': { $ref: '../components/responses/NotFound.yaml' } },
      },
    }),
    'api/components/schemas/User.yaml': stringify({ type: 'object', properties: { city: { $ref: './City.yaml' }, manager: { $ref: './User.yaml' } } }),
    'api/components/schemas/City.yaml': stringify({ type: 'string', description: 'Where the user lives', example: 'Paris' }),
    'api/components/responses/NotFound.yaml': stringify({ description: 'No such user', headers: { 'X-Trace': { $ref: '../headers/Trace.yaml' } }, content: { 'application/json': { schema: { $ref: '../schemas/Problem.yaml' } } } }),
    'api/components/headers/Trace.yaml': stringify({ description: 'Trace id of the request', schema: { type: 'string' } }),
    'api/components/schemas/Problem.yaml': stringify({ type: 'object', properties: { detail: { type: 'string', description: 'What went wrong' } } }),
    // AsyncAPI 2.0 as the Gitter example writes it: oneOf of component messages without title or name.
    'rooms.yaml': stringify({
      asyncapi: '2.0.0',
      info: { title: 'Rooms', version: '1' },
      channels: { '/rooms/{roomId}': { parameters: { roomId: { schema: { type: 'string' } } }, subscribe: { message: { oneOf: [{ $ref: '#/components/messages/chatMessage' }, { $ref: '#/components/messages/heartbeat' }] } } } },
      components: {
        messages: {
          chatMessage: { summary: 'A chat message.', payload: { type: 'object', properties: { text: { type: 'string', default: '' } } } },
          heartbeat: { summary: 'Keeps the connection alive.', payload: { type: 'string', enum: ['\r\n'] } },
        },
      },
    }),
    // AsyncAPI 3.1 (asyncapi/spec's own examples moved to it); the bundled schemas stop at 3.0.0.
    'lights.yaml': stringify({
      asyncapi: '3.1.0',
      info: { title: 'Lights', version: '1' },
      channels: { dim: { address: 'lights/{id}/dim', parameters: { id: { description: 'The light' } }, messages: { dim: { payload: { type: 'object', properties: { percent: { type: 'integer', maximum: 100 } } } } } } },
      operations: { dim: { action: 'send', channel: { $ref: '#/channels/dim' }, messages: [{ $ref: '#/channels/dim/messages/dim' }] } },
    }),
  },
);

const { result, html, text, curl, responseExample, playgroundOf } = exportedSite(files);

describe('Swagger 2.0 as public specs write it', () => {
  it('keeps a multipart form with its file, enum and length, the operation\'s consumes winning', () => {
    const t = text('swagger/upload-a-photo');
    expect(t).toContain('multipart/form-data');
    expect(t).not.toContain('x-www-form-urlencoded');
    expect(t).toMatch(/photo string<binary> body required The image file/);
    expect(t).toMatch(/kind enum<string> body Available options: portrait, landscape/);
    expect(t).toMatch(/caption string body Shown under the photo Maximum string length: 80/);
  });

  it('turns type: basic into HTTP basic auth and an `application` flow into client credentials', () => {
    expect(text('swagger/upload-a-photo')).toMatch(/Authorization string header required Basic authentication header/);
    expect(text('swagger/replace-a-pet')).toMatch(/Required scopes: pets:write/);
  });

  it('reads a body parameter given as a $ref, and collectionFormat multi as repeated query keys', () => {
    const t = text('swagger/replace-a-pet');
    expect(t).toContain('The pet to store');
    expect(t).toMatch(/name string body required/);
    expect(t).toMatch(/verbose boolean query/);
    expect(t).toContain('tags=%3Cstring%3E');
    expect(t).not.toContain('%5B');
  });

  it('keeps response headers and per-media-type examples, and the 2.0 schema dialect (x-nullable)', () => {
    const t = text('swagger/upload-a-photo');
    expect(t).toMatch(/X-Quota integer Uploads left/);
    expect(t).toMatch(/"name" ?: "Rex"/);
    expect(t).toMatch(/nick string \| null/);
  });
});


describe('request examples as the request is really sent', () => {
  it('serialises query, header and JSON-content parameters by style and explode, and takes a parameter\'s examples map', () => {
    const c = curl('requests/search-things');
    expect(c).toContain('ids=a1&ids=b2');
    expect(c).toContain('tags=red%2Cblue');
    expect(c).toContain('codes=4%7C5');
    expect(c).toContain('filter%5Bstatus%5D=open');
    expect(c).toContain('sort=-created');
    expect(c).toContain('where=%7B%22a%22%3A1%7D');
    expect(c).toContain("--header 'X-Langs: en,fr'");
  });

  it('shows a relative server\'s path, and a scheme-relative server with https, instead of no example at all', () => {
    expect(curl('requests/search-things')).toMatch(/--url '\/api\/v3\/search\?/);
    expect(curl('requests/upload-files')).toContain('--url https://files.test/v2/files');
  });

  it('sends binary multipart fields as files and array fields as one part per item', () => {
    const c = curl('requests/upload-files');
    expect(c).toMatch(/--form document= ?'@example-file'/);
    expect(c).toMatch(/--form scans= ?'@example-file'/);
    expect(c).toMatch(/--form labels=x \\ --form labels=y/);
    expect(c).toContain('--form note=hello');
    expect(c).not.toContain('<binary>');
  });
});



describe('the playground sends what the request examples show', () => {
  it('gives array and object parameters their shape, style and explode, arrays typed as a,b', () => {
    const params = playgroundOf('requests/search-things').params;
    const by = (name: string) => params.find((p) => p.name === name);
    expect(by('ids')).toMatchObject({ shape: 'array', style: 'form', explode: true, placeholder: 'a1,b2' });
    expect(by('tags')).toMatchObject({ shape: 'array', style: 'form', explode: false });
    expect(by('codes')).toMatchObject({ shape: 'array', style: 'pipeDelimited', explode: false });
    expect(by('filter')).toMatchObject({ shape: 'object', style: 'deepObject', explode: true, placeholder: '{"status":"open"}' });
    expect(by('X-Langs')).toMatchObject({ shape: 'array', style: 'simple', explode: false });
    // Scalars and JSON-content parameters are sent as typed.
    expect(by('sort')).not.toHaveProperty('shape');
    expect(by('where')).not.toHaveProperty('shape');
  });

  it('lists a multipart body\'s file fields (one file input each) and leaves them out of the JSON', () => {
    const body = playgroundOf('requests/upload-files').body!;
    expect(body.files).toEqual(['document', 'scans']);
    expect(Object.keys(JSON.parse(body.placeholder ?? '{}') as object)).toEqual(['labels', 'note']);
  });
});

describe('newer versions and the rest of what an operation can say', () => {
  it('reads OpenAPI 3.2 as 3.1 with a warning: QUERY, additionalOperations, itemSchema streams, dataValue examples', () => {
    expect(result().warnings.filter((w) => w.code === 'openapi-version').map((w) => w.message)).toEqual([expect.stringContaining('trains.yaml is OpenAPI 3.2.0: read as 3.1')]);
    expect(result().warnings.filter((w) => w.code === 'openapi-invalid')).toEqual([]);
    const q = text('trains/query-trips');
    expect(q).toContain('QUERY /trips');
    expect(curl('trains/query-trips')).toMatch(/"from": ?"Berlin"/);
    const f = text('trains/follow-a-trip');
    expect(f).toContain('SUBSCRIBE /trips/{id}');
    expect(f).toMatch(/application\/jsonl.*delay integer Minutes late/);
  });

  it('shows a JSON example written as a string as JSON, and lines of JSON as written, not encoded again', () => {
    const q = text('trains/query-trips');
    expect(q).toMatch(/Response example 200 \{ "trips" ?: \[ ?\], "total" ?: 0 \}/);
    expect(q).not.toContain('\\"trips');
    const f = text('trains/follow-a-trip');
    expect(f).toMatch(/Response example 200 \{ ?"delay" ?: ?3 ?\} \{ ?"delay" ?: ?5 ?\}/);
    expect(f).not.toContain('\\"delay');
  });

  it('shows callbacks between the body and the responses, each with its method, expression, body and responses', () => {
    const t = text('streams/subscribe-to-a-stream');
    const at = (s: string): number => t.indexOf(s);
    expect(at('Callbacks')).toBeGreaterThan(at('Query Parameters'));
    expect(at('Callbacks')).toBeLessThan(at('Response 201'));
    expect(t).toMatch(/onData: POST \{\$request\.query\.callbackUrl\}\/data/);
    expect(t).toContain('Data arrives');
    expect(t).toMatch(/reading number body The measured value/);
    expect(t).toMatch(/202.*Accepted by your server/);
  });

  it('describes mutual TLS as a certificate, not as a header to fill in', () => {
    const t = text('streams/subscribe-to-a-stream');
    expect(t).toMatch(/cert ?: mutual TLS\. The client presents a trusted certificate/);
    expect(t).toContain('A certificate issued by us.');
    expect(t.match(/Authorization string header required/g)).toHaveLength(1);
  });

  it('ignores items beside a type list without array', () => {
    expect(text('streams/subscribe-to-a-stream')).toMatch(/photoUrls string \| integer \| null/);
  });

  it('titles untitled AsyncAPI messages by their component, and shows blank or control-character options quoted', () => {
    const t = text('rooms/rooms-roomid');
    expect(t).toMatch(/### chatMessage|chatMessage A chat message\./);
    expect(t).toMatch(/heartbeat Keeps the connection alive\./);
    expect(t).not.toContain('message 1');
    expect(t).toContain('Available options: "\\r\\n"');
    expect(t).toMatch(/text string default: ""/);
  });

  it('resolves refs in a split spec relative to the file each is written in, without a false schema warning', () => {
    expect(result().warnings.filter((w) => w.file?.startsWith('api/'))).toEqual([]);
    const t = text('split/get-a-user');
    expect(t).toMatch(/city string Where the user lives Example: Paris/);
    expect(t).toMatch(/manager User Refers back to User \(a circular reference\)/);
    expect(t).toMatch(/No such user application\/json detail string What went wrong Headers X-Trace string Trace id of the request/);
  });

  it('keeps the keywords beside a 3.1 $ref, and reads anyOf of bare types as one type', () => {
    const t = text('fastapi/create-item');
    expect(t).toMatch(/kind enum<string> body default: basic What sort of item Available options: basic, premium/);
    expect(t).toMatch(/code string<uuid> \| integer body/);
    expect(t).toMatch(/loc \(string \| integer\)\[\] required/);
    expect(t).not.toMatch(/Show properties[^]*string string/);
  });

  it('shows a webhook without the API\'s servers (it is sent to the subscriber), an operation with them', () => {
    expect(html('streams/stream-ended')).toMatch(/<div class="c-endpoint"><span class="c-endpoint__method c-endpoint__method--webhook">WEBHOOK<\/span><code class="c-endpoint__path">stream\.ended<\/code><\/div>/);
    expect(html('streams/subscribe-to-a-stream')).toContain('<ul class="c-endpoint__servers" aria-label="Base URLs"><li><code>https://streams.test</code></li><li><code>https://sandbox.streams.test</code></li></ul>');
  });

  it('sends a credential a parameter repeats once, as its security scheme sends it, and still documents the parameter', () => {
    const read = curl('fastapi/read-item');
    expect(read).toContain("--header 'X-API-Key: <api-key>'");
    expect(read.match(/x-api-key/gi)).toHaveLength(1);
    expect(read).toContain('?q=');
    expect(text('fastapi/read-item')).toMatch(/x-api-key string header required The key from your dashboard/);
    expect(playgroundOf('fastapi/read-item').params.map((p) => p.name)).toEqual(['item_id', 'q']);
    // Accept and Content-Type header parameters are ignored, as OpenAPI says.
    expect(read).not.toMatch(/Content-Type|Accept/);
    expect(text('fastapi/read-item')).not.toMatch(/Content-Type string header|Accept string header/);
    expect(result().warnings.filter((w) => w.code === 'openapi-security')).toEqual([expect.objectContaining({ file: 'fastapi.json', message: expect.stringContaining('"HMAC"') })]);
    const del = curl('fastapi/delete-item');
    expect(del).toContain("--header 'Authorization: Bearer <token>'");
    expect(del.match(/authorization/gi)).toHaveLength(1);
    expect(del).toContain("--header 'X-Trace: <string>'");
    expect(playgroundOf('fastapi/delete-item').params.map((p) => p.name)).toEqual(['item_id', 'X-Trace']);
  });

  it('reads a tuple (prefixItems) as its positions and patternProperties as keys with their pattern', () => {
    const t = text('keywords/add-a-point');
    expect(t).toMatch(/at \[number, number\] body/);
    // (the reader drops the space before `.`)
    expect(t).toMatch(/path \[string, ?\.\.\.integer\[\]\] body/);
    // Positions are listed when one of them has fields of its own.
    expect(t).toMatch(/pair \[object, boolean\] body[^]*\[0\] object body[^]*label string body[^]*\[1\] boolean body/);
    expect(t).toMatch(/\{key\} string body An extension value Key pattern: \^x-/);
    expect(t).toMatch(/\{key\} integer body/);
    expect(curl('keywords/add-a-point')).toMatch(/"at": \[\s*123,\s*123\s*\]/);
    expect(curl('keywords/add-a-point')).toMatch(/"path": \[\s*"<string>"\s*\]/);
  });

  it('renders HTML in spec text under the raw HTML policy, other tag-like text and braces as typed', () => {
    const whole = html('keywords/generate-a-token');
    const page = whole.slice(whole.indexOf('id="page-content"'), whole.indexOf('</article>'));
    expect(page).toContain('<p><b>Generate API token</b> for <i>your</i> app.<br>Returns a List&lt;String&gt; of scopes for {team}.</p>');
    expect(page).toContain('<p>Read <a href="https://docs.keywords.test">the guide</a>.</p>');
    expect(page).not.toMatch(/onclick|<script/);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toMatch(/<p>Use <code>read<\/code> or <strong>write<\/strong>; <code>&lt;b&gt;<\/code> in code stays code\.<\/p>/);
    expect(page).toContain('<p>Created <em>now</em></p>');
    expect(result().warnings).toContainEqual(expect.objectContaining({ code: 'unsafe-html', message: expect.stringContaining('onclick') }));
  });

  it('lists the subtypes of a base schema with a discriminator and no oneOf, by mapping or by allOf', () => {
    const t = text('keywords/add-a-pet');
    expect(t).toMatch(/Body application\/json cat dog name string body required petType string body required What sort of pet Example: cat huntingSkill enum<string> body[^]* name string body required petType string body required What sort of pet Example: dog packSize integer body/);
    expect(t).toMatch(/Response 200 A shape application\/json Circle Square kind string Example: Circle radius number kind string Example: Square side number/);
    // The request example is the first subtype's, with its discriminator value.
    expect(curl('keywords/add-a-pet')).toMatch(/"petType": "cat",\s*"huntingSkill": "lazy"/);
  });

  it('sends JSON where a body offers it beside XML, and writes XML examples as XML documents', () => {
    const put = curl('petstore/update-an-existing-pet');
    expect(put).toContain("--header 'Content-Type: application/json'");
    expect(put).toMatch(/"name": "doggie & co"/);
    expect(playgroundOf('petstore/update-an-existing-pet').body?.type).toBe('application/json');
    // The response offers XML only: an XML document, named and wrapped as the schema's `xml` says.
    expect(responseExample('petstore/update-an-existing-pet')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<pet>\n  <id>10</id>\n  <name>doggie &amp; co</name>\n  <photoUrls>\n    <photoUrl>&lt;string&gt;</photoUrl>\n  </photoUrls>\n</pet>',
    );
    // An XML-only body is sent as XML, attributes as attributes, unwrapped arrays as repeated elements.
    const post = curl('petstore/place-an-order');
    expect(post).toContain("--header 'Content-Type: application/xml'");
    expect(post).toMatch(/<Order id="7">\s*<item>sku-1<\/item>\s*<\/Order>/);
    expect(post).not.toContain('{');
    expect(responseExample('petstore/place-an-order')).toMatch(/^<\?xml[^>]*\?>\n<Order id="7">\n  <item>sku-1<\/item>\n<\/Order>$/);
  });

  it('checks an AsyncAPI 3.1 document against the newest schema of its major instead of failing its version number', () => {
    expect(result().warnings.filter((w) => w.code.startsWith('asyncapi-'))).toEqual([]);
    expect(text('lights/dim')).toMatch(/percent integer/);
  });
});
