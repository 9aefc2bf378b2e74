/**
 * AsyncAPI channel pages (issue 16 part 4): `asyncapi` on navigation elements (a tab, a nested
 * group beside its pages, `{source, directory}`), `asyncapi: "file channel"` frontmatter, AsyncAPI
 * 3.0 and 2.x, messages with payloads, headers and examples; checked on the exported HTML.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderPool, exportSite, type ExportResult, type RenderPool } from '../../../renderer/index.js';
import { tempSite } from '../load/site-fixtures.js';
import { pageReaders } from './exported-pages.js';
import { yaml } from './fixtures.js';

const V3 = {
  asyncapi: '3.0.0',
  info: { title: 'Chat', version: '1.0.0' },
  servers: { main: { host: 'chat.example.test', protocol: 'wss', pathname: '/live' } },
  channels: {
    room: {
      title: 'Chat room',
      address: '/rooms/{roomId}',
      description: 'Messages of one *room*.',
      parameters: { roomId: { description: 'The room to join', examples: ['lobby'] } },
      messages: { Say: { $ref: '#/components/messages/Say' }, Said: { $ref: '#/components/messages/Said' }, Ping: { $ref: 'messages/ping.yaml' } },
    },
    ticks: { address: '/ticks', messages: { Tick: { payload: { schemaFormat: 'application/vnd.aai.asyncapi+json;version=3.0.0', schema: { type: 'string', examples: ['12:00:00'] } } } } },
  },
  operations: {
    sendSay: { action: 'receive', channel: { $ref: '#/channels/room' }, messages: [{ $ref: '#/channels/room/messages/Say' }] },
    pushSaid: { action: 'send', channel: { $ref: '#/channels/room' }, summary: 'Broadcast', messages: [{ $ref: '#/channels/room/messages/Said' }] },
  },
  components: {
    messages: {
      Say: {
        title: 'Say something',
        contentType: 'application/json',
        headers: { type: 'object', properties: { 'x-trace': { type: 'string' } } },
        payload: { $ref: '#/components/schemas/Text' },
        examples: [{ name: 'hello', payload: { text: 'hello', node: { next: null } } }],
      },
      Said: { title: 'Someone said', payload: { type: 'object', required: ['from'], properties: { from: { type: 'string', description: 'Who said it' }, text: { $ref: '#/components/schemas/Text' } } } },
    },
    schemas: {
      // Circular: a node that points at the next.
      Text: { type: 'object', required: ['text'], properties: { text: { type: 'string', maxLength: 500 }, node: { $ref: '#/components/schemas/Node' } } },
      Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } },
    },
  },
};

const V2 = {
  asyncapi: '2.6.0',
  info: { title: 'Legacy', version: '1' },
  servers: { prod: { url: 'mqtt.example.test:1883', protocol: 'mqtt' } },
  channels: {
    'sensors/{id}/temperature': {
      parameters: { id: { description: 'Sensor id', schema: { type: 'integer' } } },
      subscribe: { operationId: 'onTemperature', summary: 'Readings', message: { name: 'Reading', payload: { type: 'object', properties: { celsius: { type: 'number', minimum: -50 } } } } },
      publish: { message: { oneOf: [{ name: 'Reset', payload: { type: 'object', properties: { hard: { type: 'boolean' } } } }, { name: 'Calibrate', payload: { type: 'object', properties: { offset: { type: 'number' } } } }] } },
    },
  },
};

let pool: RenderPool;
let result: ExportResult;

beforeAll(async () => {
  pool = createRenderPool({ threads: 2 });
  result = await exportSite({
    sourceDir: tempSite({
      'docs.json': JSON.stringify({
        name: 'Events',
        theme: 'mint',
        navigation: {
          tabs: [
            { tab: 'Guides', groups: [{ group: 'Voice', pages: ['index', { group: 'Legacy commands', asyncapi: { source: '/legacy.json', directory: 'legacy' } }] }] },
            { tab: 'Realtime', asyncapi: 'events/asyncapi.yaml' },
            { tab: 'Remote', asyncapi: 'https://example.test/asyncapi.yaml' },
          ],
        },
      }),
      'index.mdx': '---\ntitle: Home\n---\nSee [the room](/api-reference/chat-room#param-room-id).\n\n[Custom page](/custom)\n',
      'custom.mdx': '---\ntitle: Custom channel page\nasyncapi: "/events/asyncapi.yaml ticks"\n---\nWords above the channel.\n',
      'wrong.mdx': '---\ntitle: Wrong\nasyncapi: "/events/asyncapi.yaml nope"\n---\n',
      'events/asyncapi.yaml': yaml(V3),
      'events/messages/ping.yaml': 'title: Ping\npayload:\n  type: object\n  properties:\n    at: {type: string, format: date-time}\n',
      'legacy.json': JSON.stringify(V2),
    }),
    pool,
  });
}, 90_000);
afterAll(async () => {
  await pool.close();
});

const { html, text } = pageReaders(() => result);
const codes = (): string[] => result.warnings.map((w) => w.code);

describe('AsyncAPI channel pages', () => {
  it('builds one page per channel of a tab\'s file, titled by the channel, in the sidebar', () => {
    const room = text('api-reference/chat-room');
    expect(room).toMatch(/WSS wss:\/\/chat\.example\.test\/live \/rooms\/\{roomId\}/);
    expect(room).toContain('Messages of one room');
    expect(room).toMatch(/Parameters roomId string path required The room to join Example: lobby/);
    expect(html('api-reference/ticks')).toContain('12:00:00');
    expect(html('api-reference/chat-room')).toMatch(/href="\/api-reference\/ticks\/"/);
  });

  it('shows messages by operation (send / receive) with payload and header fields, refs across files, cycles cut, and examples', () => {
    const room = text('api-reference/chat-room');
    expect(room).toMatch(/Send .*Someone said .*Payload .*from string required Who said it/);
    expect(room).toMatch(/Receive .*Say something .*application\/json .*Headers .*x-trace string .*Payload .*text string required/);
    expect(room).toContain('Refers back to');
    // A channel message no operation names gets its own section, from another file.
    expect(room).toMatch(/Messages .*Ping .*at string<date-time>/);
    const page = html('api-reference/chat-room');
    expect(page).toMatch(/class="c-example c-example--response"/);
    expect(page).toContain('Receive: Say something');
    // The #param- anchor a page links to exists.
    expect(page).toContain('id="param-room-id"');
  });

  it('reads AsyncAPI 2.x (subscribe = the application sends, publish = it receives, oneOf messages) into a nested group\'s directory', () => {
    const legacy = text('legacy/sensors-id-temperature');
    expect(legacy).toMatch(/MQTT mqtt:\/\/mqtt\.example\.test:1883 sensors\/\{id\}\/temperature/);
    expect(legacy).toMatch(/Send .*Reading .*celsius number/);
    expect(legacy).toMatch(/Receive .*Reset .*hard boolean .*Calibrate .*offset number/);
    expect(html('')).toMatch(/Legacy commands[\s\S]*href="\/legacy\/sensors-id-temperature\/"/);
  });

  it('shows a channel on an MDX page named by asyncapi frontmatter, below the page\'s own words', () => {
    const custom = text('custom');
    expect(custom).toMatch(/Words above the channel\..*Messages .*Tick/);
    expect(result.warnings.find((w) => w.code === 'asyncapi-channel')?.message).toContain('asyncapi: /events/asyncapi.yaml nope');
  });

  it('warns about an AsyncAPI file at a URL and leaves its tab out; no other AsyncAPI warning', () => {
    expect(result.warnings.find((w) => w.code === 'asyncapi-remote')?.message).toContain('https://example.test/asyncapi.yaml');
    expect(codes().filter((c) => c.startsWith('asyncapi-')).sort()).toEqual(['asyncapi-channel', 'asyncapi-remote']);
    expect(codes()).not.toContain('openapi-navigation');
  });
});
