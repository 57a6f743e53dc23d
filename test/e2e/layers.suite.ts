/// <reference lib="dom" />
// page.evaluate callbacks run in the browser.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, E2E_TIMEOUT, launchBrowser, shot } from './browser.js';
import { startTestServer, type TestServer } from './server.js';
import { api, pickUser, rowTexts, setLang, signedInPage } from './helpers.js';

const SCOPED = 't:acme:li-ming'; // the engine's id of tenant acme's user "li-ming"

describe.runIf(browserAvailable)('web page: the other layers (Chromium)', { timeout: E2E_TIMEOUT }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let key: string;
  const user = '/v1/users/li-ming';
  const talk = async (sessionId: string, lines: string[]) => {
    await api(server.url, key, 'POST', `${user}/sessions/${sessionId}/messages`, { messages: lines.map((content) => ({ role: 'user', content })) });
    await api(server.url, key, 'POST', `${user}/sessions/${sessionId}/extract`);
  };

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    key = (await server.createKey('acme')).key;
    await api(server.url, key, 'PUT', `${user}/settings`, { timeZone: 'Asia/Shanghai' });
    page = await signedInPage(browser, server.url, key, 'li-ming', { acceptDownloads: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, 60_000);

  it('shows every profile version and a word diff between them', async () => {
    await talk('p1', ['我叫李明，我喜欢猫。']);
    await server.memory.updateProfile(SCOPED, { force: true });
    await talk('p2', ['I love hiking in the mountains.']);
    await server.memory.updateProfile(SCOPED, { force: true });
    await page.goto(`${server.url}/#/profile`);
    await page.waitForSelector('.versions li:nth-child(2)');
    expect(await page.locator('.versions button').allTextContents()).toEqual(['Version 2', 'Version 1']);
    expect(await page.locator('.narrative ins').allTextContents().then((a) => a.join(''))).toContain('hiking');
    expect(await page.textContent('.narrative')).toContain('李明');
    await shot(page, 'profile-diff');
    await page.click('.versions button:text-is("Version 1")');
    await expect.poll(() => page.locator('.narrative ins').count()).toBe(0);
    expect(await page.textContent('.narrative')).not.toContain('hiking');
  });

  it('shows episodes as a timeline', async () => {
    await api(server.url, key, 'POST', `${user}/sessions/e1/messages`, { messages: ['我下周去东京出差', '想找一家安静的酒店', 'Any quiet hotel near Shinjuku?'].map((content) => ({ role: 'user', content })) });
    await server.memory.summarize(SCOPED, 'e1');
    await page.goto(`${server.url}/#/episodes`);
    await page.waitForSelector('main .timeline li');
    expect(await page.locator('main .timeline li').count()).toBe(1);
    await shot(page, 'episodes');
  });

  it('lists learnings, all or for a task, and says when no memory.md mirror is configured', async () => {
    await api(server.url, key, 'POST', `${user}/learnings`, { task: '部署前端到 Nginx', steps: ['npm run build', '把 dist 复制到 /var/www', 'nginx -s reload'] });
    await api(server.url, key, 'POST', `${user}/learnings`, { task: 'Fix a flaky SQLite test', steps: ['use a temp file per test', 'close the store in afterEach'] });
    await page.goto(`${server.url}/#/learnings`);
    await expect.poll(() => page.locator('main .list li').count()).toBe(2);
    await page.fill('main input[type=search]', 'SQLite flaky');
    await page.press('main input[type=search]', 'Enter');
    await expect.poll(async () => (await page.locator('main .list li a').allTextContents())[0]).toContain('SQLite');
    expect(await page.textContent('main .list li pre')).toContain('temp file');
    await page.goto(`${server.url}/#/mirror`);
    await page.waitForSelector('text=No memory.md mirror is configured on this server.');
  });

  it('saves settings', async () => {
    await page.goto(`${server.url}/#/settings`);
    await page.waitForSelector('#setting-silentMinutes');
    await page.fill('#setting-silentMinutes', '5');
    await page.click('form.settings button[type=submit]');
    await page.waitForSelector('text=Settings saved.');
    expect(await api(server.url, key, 'GET', `${user}/settings`)).toMatchObject({ silentMinutes: 5, timeZone: 'Asia/Shanghai' });
  });

  it('exports a user as JSON, imports it next to the original, shows a bad file\'s error with its request id, restores after forgetting', async () => {
    await api(server.url, key, 'POST', `${user}/memories`, { content: '用户喜欢猫', kind: 'preference' });
    await page.goto(`${server.url}/#/data`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Download JSON")')]);
    const file = await download.path();
    const data = JSON.parse(readFileSync(file, 'utf8')) as { format: string; memories: unknown[] };
    expect(data.format).toBe('engram-export');
    expect(data.memories.length).toBeGreaterThan(0);
    // Importing next to the original: every row becomes the copy's, ids already taken are re-issued.
    await pickUser(page, 'li-ming-copy');
    await page.goto(`${server.url}/#/data`);
    await page.setInputFiles('#import-file', file);
    await page.waitForSelector('[role=status]:has-text("Imported")');
    // Again into the same user, who now has data: said in the page's language (zh, en), the server's words kept behind it.
    await setLang(page, 'zh');
    await page.setInputFiles('#import-file', []);
    await page.setInputFiles('#import-file', file);
    await page.waitForSelector('.error[data-code="CONFLICT"]');
    expect(await page.textContent('.error strong')).toBe('这个用户在这里已经有数据（记忆、消息、待办或画像）。导出文件只能导入到空用户：请换一个新的用户 ID，或先遗忘这个用户。');
    expect(await page.textContent('.error .server-words')).toContain('User li-ming-copy already has');
    await shot(page, 'import-again-zh');
    await setLang(page, 'en');
    expect(await page.textContent('.error strong')).toMatch(/^This user already has data here/);
    await page.setInputFiles('#import-file', []);
    // A file that is not an export: the server's error shows with its request id.
    const bad = join(mkdtempSync(join(tmpdir(), 'engram-e2e-')), 'not-an-export.json');
    writeFileSync(bad, JSON.stringify({ format: 'something-else', memories: 'none' }));
    await page.setInputFiles('#import-file', bad);
    await page.waitForSelector('.error');
    expect(await page.textContent('.error')).toContain('INVALID_INPUT');
    expect(await page.textContent('.error .request-id')).toMatch(/request id: [0-9a-f-]{8,}/);
    await shot(page, 'import-error');
    // Restoring into the user after forgetting them brings the memories back.
    await api(server.url, key, 'POST', `${user}/forget`, { all: true });
    await pickUser(page, 'li-ming');
    await page.goto(`${server.url}/#/memories`);
    await expect.poll(() => rowTexts(page)).toEqual([]);
    await page.goto(`${server.url}/#/data`);
    await page.setInputFiles('#import-file', file);
    await page.waitForSelector('[role=status]:has-text("Imported")');
    await page.goto(`${server.url}/#/memories`);
    await expect.poll(() => rowTexts(page)).toEqual(expect.arrayContaining(['用户喜欢猫']));
  });

  it('opens without a key on a fresh loopback server (npm start with no keys)', async () => {
    const open = await startTestServer({ open: true });
    try {
      const fresh = await (await browser.newContext({ locale: 'en-US' })).newPage();
      await fresh.goto(open.url);
      await fresh.waitForSelector('nav.tabs');
      expect(await fresh.locator('#api-key').count()).toBe(0);
      expect(await fresh.textContent('main')).toContain('No users yet');
      await pickUser(fresh, 'first-user');
      await fresh.waitForSelector('main h1:text-is("Memories")');
    } finally {
      await open.close();
    }
  });
  it('shows stored text as stored: a right-to-left override, zero-width characters and a NUL appear as markers, not as reversed or hidden text (zh, en)', async () => {
    const other = '/v1/users/text-check';
    const spoof = (await api(server.url, key, 'POST', `${other}/memories`, { content: '\u202e用户住在\ufeff北京\u200b' })) as { id: string };
    const english = (await api(server.url, key, 'POST', `${other}/memories`, { content: 'The user \u202dlikes\u202c \u2067cats\u2069' })) as { id: string };
    await api(server.url, key, 'POST', `${other}/todos`, { content: '\u202e给妈妈打电话' });
    // Messages keep what was said, odd characters too: the page shows them as markers.
    await api(server.url, key, 'POST', `${other}/sessions/odd/messages`, { messages: [{ role: 'user', content: 'nul \u0000 here, \u202e反转' }] });
    await pickUser(page, 'text-check');
    await page.goto(`${server.url}/#/memory/${spoof.id}`);
    await page.waitForSelector('.memory-content');
    expect(await page.textContent('.memory-content')).toBe('⟨U+202E⟩用户住在⟨U+FEFF⟩北京⟨U+200B⟩');
    expect(await page.getAttribute('.memory-content .hidden-char >> nth=0', 'title')).toBe('U+202E RIGHT-TO-LEFT OVERRIDE');
    // Read left to right as stored: 用 is drawn left of 京 (with the override it was the other way round).
    const xs = await page.evaluate(() => {
      const nodes = Array.from(document.querySelector('.memory-content')!.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE);
      const at = (c: string) => {
        const node = nodes.find((n) => n.textContent!.includes(c))!;
        const r = document.createRange();
        const i = node.textContent!.indexOf(c);
        r.setStart(node, i);
        r.setEnd(node, i + 1);
        return r.getBoundingClientRect().left;
      };
      return [at('用'), at('京')];
    });
    expect(xs[0]).toBeLessThan(xs[1]!);
    // Its history shows the same.
    expect(await page.textContent('.timeline tr:has(th[title="content"]) td.after')).toBe('⟨U+202E⟩用户住在⟨U+FEFF⟩北京⟨U+200B⟩');
    await shot(page, 'stored-text-memory');
    // The list shows it so too, and its checkbox names it so.
    await page.goto(`${server.url}/#/memories`);
    await expect.poll(() => page.locator('table.memories tbody .content-cell a').allTextContents()).toEqual(expect.arrayContaining(['The user ⟨U+202D⟩likes⟨U+202C⟩ ⟨U+2067⟩cats⟨U+2069⟩', '⟨U+202E⟩用户住在⟨U+FEFF⟩北京⟨U+200B⟩']));
    expect(await page.locator('table.memories tbody input[type=checkbox]').evaluateAll((boxes) => boxes.map((b) => b.getAttribute('aria-label') ?? '').some((l) => l.includes('⟨U+202E⟩用户住在')))).toBe(true);
    await page.goto(`${server.url}/#/memory/${english.id}`);
    await expect.poll(() => page.textContent('.memory-content')).toBe('The user ⟨U+202D⟩likes⟨U+202C⟩ ⟨U+2067⟩cats⟨U+2069⟩');
    await page.goto(`${server.url}/#/session/odd`);
    await page.waitForSelector('.messages li p');
    expect(await page.textContent('.messages li p')).toBe('nul ⟨U+0000⟩ here, ⟨U+202E⟩反转');
    await page.goto(`${server.url}/#/todos`);
    await page.waitForSelector('.list li');
    expect(await page.textContent('.list li span.grow')).toBe('⟨U+202E⟩给妈妈打电话');
    await setLang(page, 'zh');
    await page.click('.list li button:has-text("删除")');
    expect(await page.textContent('dialog.confirm[open]')).toContain('删除待办「⟨U+202E⟩给妈妈打电话」');
    await shot(page, 'stored-text-todo-zh');
    await page.keyboard.press('Escape');
    await setLang(page, 'en');
    await pickUser(page, 'li-ming');
  });
});
