import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Words that mean the same to this fake model: they share a dimension. */
const CONCEPTS: string[][] = [
  ['refund', 'refunds', 'money', 'reimburse', 'reimbursed'],
  ['invoice', 'invoices', 'bill', 'bills'],
];
const DIMS = 32;

function vector(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const concept = CONCEPTS.findIndex((c) => c.includes(word));
    if (concept >= 0) v[concept]! += 3;
    else {
      let h = 0;
      for (const ch of word) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
      v[CONCEPTS.length + (h % (DIMS - CONCEPTS.length))]! += 1;
    }
  }
  return v;
}

/** An OpenAI-compatible /v1/embeddings server on 127.0.0.1 with a tiny notion of synonyms. */
export async function startFakeEmbeddings() {
  const inputs: string[][] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { input: string[] };
      inputs.push(body.input);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: body.input.map((t, index) => ({ object: 'embedding', index, embedding: vector(t) })) }));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    inputs,
    async close() {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    },
  };
}
