import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../app/create-context.js';
import type { TestAppliance } from '../helpers/appliance.js';
import { chunked, finish, hang, toolCall, toolCalls, type ScriptedReply } from './helpers/fake-model.js';
import { agentRig } from './helpers/agent-rig.js';
import { jobUrl } from './helpers/agent-appliance.js';

// Issue 14, finding 8: one model reply with 400 read_file calls stored 98 MB and made the next
// request 98 MB; two replies of 5,000 write_file calls pushed 10,000 files. Every bound of
// docs/agent.md ("Limits of a job") is driven here through the HTTP API and a scripted model.

const MiB = 1024 * 1024;
const rig = agentRig();
const setup = (script: ScriptedReply[], agent: Record<string, unknown> = {}) => rig(script, { agent: { timeoutSeconds: 50, ...agent } });

/** What the database holds for a job: its conversation's bytes (total and largest row). */
function stored(t: TestAppliance, jobId: string): { total: number; largest: number; rows: number } {
  const r = t.ctx.db
    .prepare<[string], { total: number | null; largest: number | null; rows: number }>(
      'SELECT sum(length(CAST(body AS BLOB))) AS total, max(length(CAST(body AS BLOB))) AS largest, count(*) AS rows FROM agent_messages WHERE job_id = ?',
    )
    .get(jobId)!;
  return { total: r.total ?? 0, largest: r.largest ?? 0, rows: r.rows };
}

const dbBytes = (t: TestAppliance) =>
  ['', '-wal'].reduce((n, suffix) => {
    const f = path.join(t.stateDir, DATABASE_FILE + suffix);
    return n + (fs.existsSync(f) ? fs.statSync(f).size : 0);
  }, 0);

/** Poll over HTTP until the job leaves `active`, watching the database the whole time. */
async function runToEnd(t: TestAppliance, key: string, prompt: string, jobId?: string) {
  const id = jobId ?? ((await t.api(key).post(jobUrl()).send({ prompt }).expect(201)).body as { id: string }).id;
  if (jobId) await t.api(key).post(`${jobUrl(jobId)}/message`).send({ prompt }).expect(200);
  let peak = 0;
  const started = Date.now();
  for (;;) {
    peak = Math.max(peak, stored(t, id).total);
    const r = await t.api(key).get(jobUrl(id)).expect(200);
    if (r.body.status !== 'active') return { id, body: r.body as { status: string; prLink: string | null; source: { ref: string } }, peak, error: t.ctx.stores.agentJobs.get(id)!.error };
    if (Date.now() - started > 55_000) throw new Error(`job ${id} still active`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const many = (n: number, make: (i: number) => [string, unknown]) => Array.from({ length: n }, (_, i) => make(i));

describe('agent job limits', { timeout: 90_000 }, () => {
  it('runs 20 of a reply’s 400 read_file calls, keeps requests under 4 MiB and storage bounded, and names the limits in the pull request', async () => {
    const big = `${'A line of a long reference page, repeated to make it large.\n'.repeat(4100)}`; // 250 KB
    const { model, host, t, key } = await setup([
      toolCall('write_file', { path: 'reference/big.mdx', content: big }),
      toolCalls(many(400, () => ['read_file', { path: 'reference/big.mdx' }])),
      finish('Read the reference page.'),
    ]);
    const dbBefore = dbBytes(t);
    const { id, body, peak } = await runToEnd(t, key, 'Read the reference page 400 times');
    expect(body).toMatchObject({ status: 'completed', prLink: 'http://git.test.internal/pulls/1' });

    // 20 calls ran: 20 tool results of 250 KB stored, not 400 (98 MB before the fix).
    const rows = t.ctx.stores.agentJobs.conversation(id, 1);
    const toolRows = rows.filter((m) => m.role === 'tool');
    expect(toolRows).toHaveLength(1 + 20 + 1);
    const second = rows.filter((m) => m.role === 'assistant')[1]!;
    expect((second.body.tool_calls as unknown[]).length).toBe(20);
    expect(String(toolRows[20]!.body.content)).toContain('your reply had 400 tool calls; only the first 20 were run (agent.maxToolCallsPerReply)');
    const after = stored(t, id);
    expect(after.total).toBeLessThanOrEqual(16 * MiB);
    expect(peak).toBeLessThanOrEqual(16 * MiB);
    expect(after.largest).toBeLessThan(300 * 1024);
    expect(dbBytes(t) - dbBefore).toBeLessThan(40 * MiB);

    // The request after the 20 reads (5 MB of results) was compacted under agent.maxRequestBytes.
    expect(model.requests).toHaveLength(3);
    for (const r of model.requests) expect(r.bytes).toBeLessThanOrEqual(4 * MiB);
    const third = JSON.stringify(model.requests[2]!.body.messages);
    expect(third).toContain('dropped to keep the request under agent.maxRequestBytes');
    expect(third).toContain('A line of a long reference page'); // the newest results stay

    // The user sees which limits were reached: the pull request says it, and so does the log.
    const prBody = String(host.pullRequests()[0]!.body!.body);
    expect(prBody).toContain('**Limits reached**');
    expect(prBody).toContain('`agent.maxToolCallsPerReply`: a reply with 400 tool calls; the first 20 ran, 380 were dropped');
    expect(prBody).toContain('`agent.maxRequestBytes`');
    const logs = t.logs.join('');
    expect(logs).toContain('agent: limit agent.maxToolCallsPerReply reached');
    expect(logs).toContain('agent: limit agent.maxRequestBytes reached');
  });

  it('two replies of 5,000 write_file calls: 40 files in the pull request, not 10,000', async () => {
    const reply = (r: number) => toolCalls(many(5000, (i) => ['write_file', { path: `bulk/r${r}-${i}.mdx`, content: `page ${r}-${i}\n` }]));
    const { remote, model, host, t, key } = await setup([reply(1), reply(2), finish('Wrote the pages.')]);
    const { id, body, peak } = await runToEnd(t, key, 'Write 10,000 pages');
    expect(body.status).toBe('completed');
    expect(remote.changedFiles('main', body.source.ref)).toHaveLength(40);
    expect(host.pullRequests()).toHaveLength(1);
    expect(String(host.pullRequests()[0]!.body!.body)).toContain('`agent.maxToolCallsPerReply`: a reply with 5000 tool calls; the first 20 ran, 4980 were dropped');
    // Neither the 5,000-call replies nor their results were stored whole.
    expect(peak).toBeLessThan(1 * MiB);
    expect(stored(t, id).rows).toBeLessThan(50);
    expect(model.requests.every((r) => r.bytes < 1 * MiB)).toBe(true);
  });

  it('bounds the files a job changes across turns (agent.maxFilesChanged): writes past it are refused, the pull request holds what fits', async () => {
    const write = (from: number, n: number) => toolCalls(many(n, (i) => ['write_file', { path: `pages/p${from + i}.mdx`, content: `page ${from + i}\n` }]));
    const { remote, model, host, t, key } = await setup([write(0, 25), finish('25 pages.')], { maxToolCallsPerReply: 1000, maxFilesChanged: 30 });
    const first = await runToEnd(t, key, 'Write 25 pages');
    expect(first.body.status).toBe('completed');
    expect(remote.changedFiles('main', first.body.source.ref)).toHaveLength(25);

    // The follow-up tries 20 new files and rewrites one of the first turn's: 5 new fit.
    model.push(toolCalls([...many(20, (i) => ['write_file', { path: `more/m${i}.mdx`, content: 'more\n' }] as [string, unknown]), ['write_file', { path: 'pages/p0.mdx', content: 'rewritten\n' }]]), finish('More pages.'));
    const second = await runToEnd(t, key, 'Write 20 more pages', first.id);
    expect(second.body.status).toBe('completed');
    const files = remote.changedFiles('main', first.body.source.ref);
    expect(files).toHaveLength(30);
    expect(remote.show(first.body.source.ref, 'pages/p0.mdx')).toBe('rewritten\n');
    const results = model.requests.at(-1)!.body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(results.filter((r) => r.includes('at most 30 per job (agent.maxFilesChanged)'))).toHaveLength(15);
    // The follow-up pushed to the open pull request (no second one); the log names the limit.
    expect(host.pullRequests()).toHaveLength(1);
    expect(t.logs.join('')).toContain('agent: limit agent.maxFilesChanged reached');
  });

  it('cuts a long tool output (agent.maxToolOutputBytes), refuses a file larger than it to read_file, and bounds the bytes changed (agent.maxChangedBytes)', async () => {
    const needles = Array.from({ length: 150 }, (_, i) => `needle ${i} ${'x'.repeat(90)}`).join('\n');
    const { remote, model, host, t, key } = await setup(
      [
        toolCall('write_file', { path: 'a.mdx', content: 'a'.repeat(600 * 1024) }),
        toolCall('write_file', { path: 'b.mdx', content: 'b'.repeat(600 * 1024) }),
        toolCall('write_file', { path: 'needles.mdx', content: needles }),
        toolCall('search_files', { query: 'needle' }),
        toolCall('read_file', { path: 'a.mdx' }),
        finish('Done what fits.'),
      ],
      { maxToolOutputBytes: 4096, maxChangedBytes: 1 * MiB },
    );
    const { id, body } = await runToEnd(t, key, 'Write big pages and search');
    expect(body.status).toBe('completed');
    expect(remote.changedFiles('main', body.source.ref)).toEqual(['a.mdx', 'needles.mdx']);
    const results = model.requests.at(-1)!.body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(results[1]).toMatch(/^error: the files this job changes would hold \d+ bytes; at most 1048576 per job \(agent\.maxChangedBytes\)/);
    expect(Buffer.byteLength(results[3]!)).toBeLessThanOrEqual(4096);
    expect(results[3]).toContain('needle 0 ');
    expect(results[3]).toContain('a tool result keeps at most 4096 (agent.maxToolOutputBytes)');
    // Never a cut file (the model could write it back short): refused whole.
    expect(results[4]).toBe('error: "a.mdx" is 614400 bytes; read_file returns at most 4096');
    for (const m of t.ctx.stores.agentJobs.conversation(id, 1).filter((x) => x.role === 'tool')) expect(JSON.stringify(m.body).length).toBeLessThan(4096 + 500);
    const prBody = String(host.pullRequests()[0]!.body!.body);
    expect(prBody).toContain('`agent.maxChangedBytes`');
    expect(prBody).toContain('`agent.maxToolOutputBytes`');
  });

  it('fails the turn on a model reply larger than agent.maxReplyBytes, streamed or not, without retrying', async () => {
    const huge = JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'z'.repeat(200 * 1024) } }] });
    const { model, remote, t, key } = await setup([chunked(200, huge)], { maxReplyBytes: 64 * 1024 });
    const { id, body, peak } = await runToEnd(t, key, 'Answer at length');
    expect(body).toMatchObject({ status: 'failed', prLink: null });
    const error = t.ctx.stores.agentJobs.get(id)!.error!;
    expect(error).toBe('agent.maxReplyBytes reached: the model reply is more than 65536 bytes; at most 65536 are accepted');
    expect(model.requests).toHaveLength(1);
    expect(peak).toBeLessThan(1024);
    expect(remote.branches()).toEqual(['main']);
    expect(t.logs.join('')).toContain(`agent job turn failed: ${error}`);
  });

  it('fails the turn before the job stores more than agent.maxTranscriptBytes, and drops what the turn stored', async () => {
    const big = 'r'.repeat(200 * 1024);
    const { model, remote, t, key } = await setup(
      [toolCall('write_file', { path: 'big.mdx', content: big }), toolCalls(many(10, () => ['read_file', { path: 'big.mdx' }])), finish('never reached')],
      { maxTranscriptBytes: 1 * MiB },
    );
    const { id, body, peak } = await runToEnd(t, key, 'Read it ten times');
    expect(body).toMatchObject({ status: 'failed', prLink: null });
    const error = t.ctx.stores.agentJobs.get(id)!.error!;
    expect(error).toMatch(/^agent\.maxTranscriptBytes reached: the job's stored conversation would grow to \d+ bytes; a job keeps at most 1048576\. Start a new job\.$/);
    expect(peak).toBeLessThanOrEqual(1 * MiB);
    expect(stored(t, id).total).toBeLessThan(4096); // the prompt and the failure note
    expect(model.requests).toHaveLength(2);
    expect(remote.branches()).toEqual(['main']);
    expect(t.logs.join('')).toContain('agent job turn failed: agent.maxTranscriptBytes reached');
  });

  it('fails the turn when even a compacted conversation exceeds agent.maxRequestBytes, without calling the model', async () => {
    const { model, t, key } = await setup([finish('never reached')], { maxRequestBytes: 64 * 1024 });
    const { id, body } = await runToEnd(t, key, 'é'.repeat(40_000));
    expect(body.status).toBe('failed');
    expect(t.ctx.stores.agentJobs.get(id)!.error).toMatch(/^agent\.maxRequestBytes reached: the conversation needs \d+ bytes even with every old tool output and tool-call argument dropped; a request to the model is at most 65536 bytes\. Start a new job\.$/);
    expect(model.requests).toHaveLength(0);
  });

  it('answers 409 to a follow-up that would pass agent.maxTranscriptBytes; what is stored stays below it', async () => {
    const { t, key } = await setup([hang()], { maxTranscriptBytes: 1 * MiB });
    const { id } = (await t.api(key).post(jobUrl()).send({ prompt: 'Start' }).expect(201)).body as { id: string };
    const prompt = 'é'.repeat(90_000); // 180 KB each
    for (let i = 0; i < 5; i++) await t.api(key).post(`${jobUrl(id)}/message`).send({ prompt }).expect(200);
    const refused = await t.api(key).post(`${jobUrl(id)}/message`).send({ prompt }).expect(409);
    expect(refused.body.error).toMatch(/^agent\.maxTranscriptBytes reached: the job's conversation would be \d+ bytes; a job keeps at most 1048576\. Start a new job$/);
    expect(stored(t, id).total).toBeLessThanOrEqual(1 * MiB);
    expect(stored(t, id).rows).toBe(6);
    expect(t.logs.join('')).toContain('agent follow-up refused: the job conversation is full');
  });
});
