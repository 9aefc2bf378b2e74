import { chromium } from 'playwright-core';
const pages = process.argv.slice(2);
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const ctx = await b.newContext({ viewport: { width: 1280, height: 900 } });
const p = await ctx.newPage();
const errors = [];
p.on('pageerror', (e) => errors.push(String(e)));
p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
for (const [i, u] of pages.entries()) {
  errors.length = 0;
  const r = await p.goto('http://127.0.0.1:' + u, { waitUntil: 'load' });
  await p.waitForTimeout(300);
  const h1 = await p.locator('h1').first().textContent().catch(() => '');
  const text = (await p.locator('#page-content').innerText().catch(() => '')).length;
  await p.screenshot({ path: `/tmp/shot-${i}.png` });
  console.log(r.status(), u, JSON.stringify(h1?.trim()), 'content chars', text, 'errors', errors.slice(0, 3).join(' | '));
}
await b.close();
