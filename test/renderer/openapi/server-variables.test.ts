/**
 * Server variables (issue 39 class 5): the request examples and the header show each variable's
 * default (an enum's first value when the spec gives no default), and the playground gets the URL
 * templates and the variables to choose (a list for an enum), starting at what the examples show.
 */
import { describe, expect, it } from 'vitest';
import { exportedSite, specTabsSite } from './exported-pages.js';

const op = (summary: string) => ({ post: { summary, responses: { '200': { description: 'OK' } } } });
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Chat', version: '1' },
  // As Dify's spec writes it: the whole host and path a variable.
  servers: [{ url: 'https://{api_base_url}', variables: { api_base_url: { default: 'api.chat.test/v1', description: 'Host and path of the API' } } }],
  paths: {
    '/chat-messages': op('Send a message'),
    '/regional': {
      ...op('Regional'),
      servers: [
        // No default: the enum's first value; `{tenant}` is not defined and stays as written.
        { url: 'https://{region}.chat.test/{version}/{tenant}', variables: { region: { enum: ['eu', 'us'] }, version: { default: 'v2', enum: ['v1', 'v2'] } } },
        { url: 'https://fixed.chat.test' },
      ],
    },
  },
};

const site = exportedSite(specTabsSite('Chat', [{ tab: 'API', source: 'chat.json', directory: 'api', doc: SPEC }]));

describe('server variables', () => {
  it("fills the request examples with the variable's default, as the playground sends", () => {
    const curl = site.curl('api/send-a-message');
    expect(curl).toContain('--url https://api.chat.test/v1/chat-messages');
    expect(site.text('api/send-a-message')).not.toContain('{api_base_url}');
    const req = site.playgroundOf('api/send-a-message');
    expect(req.servers).toEqual(['https://api.chat.test/v1']);
    expect(req.serverTemplates).toEqual([{ url: 'https://{api_base_url}', variables: [{ name: 'api_base_url', default: 'api.chat.test/v1', description: 'Host and path of the API' }] }]);
  });

  it("takes an enum's first value when a variable has no default, and gives the playground each server's choices", () => {
    expect(site.curl('api/regional')).toContain('--url https://eu.chat.test/v2/{tenant}/regional');
    const req = site.playgroundOf('api/regional');
    expect(req.servers).toEqual(['https://eu.chat.test/v2/{tenant}', 'https://fixed.chat.test']);
    expect(req.serverTemplates).toEqual([
      {
        url: 'https://{region}.chat.test/{version}/{tenant}',
        variables: [
          { name: 'region', default: 'eu', enum: ['eu', 'us'] },
          { name: 'version', default: 'v2', enum: ['v1', 'v2'] },
        ],
      },
      null,
    ]);
  });
});
