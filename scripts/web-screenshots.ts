/**
 * Writes the README's screenshots of the web page (docs/web-memory.png, docs/web-playground.png)
 * from the real server on loopback with a temp database: `npx tsx scripts/web-screenshots.ts`.
 */
import { join } from 'node:path';
import { launchBrowser } from '../test/e2e/browser.js';
import { startTestServer } from '../test/e2e/server.js';
import { api, signIn, pickUser } from '../test/e2e/helpers.js';

const out = join(import.meta.dirname, '..', 'docs');
const server = await startTestServer();
const browser = await launchBrowser();
try {
  const { key } = await server.createKey('demo');
  const user = '/v1/users/li-ming';
  await api(server.url, key, 'POST', `${user}/sessions/s1/messages`, { messages: [
    { role: 'user', content: '我叫李明，在杭州做前端开发。' },
    { role: 'user', content: '我喜欢猫，家里有一只橘猫叫年糕。' },
    { role: 'user', content: '下周五我要去东京出差。' },
  ] });
  await api(server.url, key, 'POST', `${user}/sessions/s1/extract`);
  await api(server.url, key, 'POST', `${user}/sessions/s2/messages`, { messages: [{ role: 'user', content: 'I prefer a window seat on long flights.' }] });
  await api(server.url, key, 'POST', `${user}/sessions/s2/extract`);
  const page = (await (await browser.newContext({ locale: 'zh-CN', viewport: { width: 1100, height: 820 }, deviceScaleFactor: 1 })).newPage());
  await signIn(page, server.url, key);
  await pickUser(page, 'li-ming');
  await page.waitForSelector('table.memories tbody tr');
  const cat = page.locator('table.memories a', { hasText: '猫' }).first();
  await cat.click();
  await page.waitForSelector('.timeline li');
  await page.click('button:has-text("编辑")');
  await page.fill('#edit-content', '用户喜欢猫，家里有一只橘猫叫年糕');
  await page.fill('#edit-importance', '0.8');
  await page.click('form.editor button[type=submit]');
  await page.waitForSelector('.timeline li.action-update');
  await page.waitForSelector('ol.messages li');
  await page.setViewportSize({ width: 1100, height: 1400 });
  await page.screenshot({ path: join(out, 'web-memory.png') });
  await page.setViewportSize({ width: 1100, height: 1000 });

  await page.goto(`${server.url}/#/playground`);
  await page.fill('#play-session', 'demo');
  await page.press('#play-session', 'Tab');
  for (const text of ['我喜欢喝抹茶拿铁。', '周五去东京有什么推荐？']) {
    await page.fill('#play-input', text);
    await page.click('.chat button[type=submit]');
    await page.waitForSelector(`.chat .messages li:text-is("${text}")`);
    if (text.startsWith('我喜欢')) {
      await page.click('button:has-text("立即提取")');
      await page.waitForSelector('.ops li');
    }
  }
  await page.waitForSelector('.context-block');
  await page.waitForSelector('.toast', { state: 'detached' });
  await page.screenshot({ path: join(out, 'web-playground.png') });
  console.log(`wrote ${join(out, 'web-memory.png')} and ${join(out, 'web-playground.png')}`);
} finally {
  await browser.close();
  await server.close();
}
