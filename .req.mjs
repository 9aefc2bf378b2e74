import { chromium } from 'playwright-core';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const p = await (await b.newContext()).newPage();
for (const u of process.argv.slice(2)) {
  const out = new Set();
  p.on('request', (r) => { if (!r.url().startsWith('http://127.0.0.1')) out.add(r.resourceType() + ' ' + r.url().slice(0, 100)); });
  await p.goto('http://127.0.0.1:' + u, { waitUntil: 'load' }); await p.waitForTimeout(500);
  console.log(u, [...out]);
  p.removeAllListeners('request');
}
await b.close();
