/// <reference lib="dom" />
// page.evaluate callbacks run in the browser.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, E2E_TIMEOUT, launchBrowser, shot } from './browser.js';
import { startTestServer, type TestServer } from './server.js';
import { api, pickUser, rowTexts, signIn } from './helpers.js';

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
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1200, height: 900 }, acceptDownloads: true });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await signIn(page, server.url, key);
    await pickUser(page, 'li-ming');
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

  it("lists todos with due times in the user's time zone; complete and delete", async () => {
    await api(server.url, key, 'POST', `${user}/todos`, { content: 'Renew the passport', dueAt: '2026-02-01T09:00:00Z' });
    await api(server.url, key, 'POST', `${user}/todos`, { content: '给妈妈打电话' });
    await page.goto(`${server.url}/#/todos`);
    await page.waitForSelector('.list li:has-text("Renew the passport")');
    expect(await page.textContent('.list li:has-text("Renew the passport")')).toContain('17:00'); // 09:00 UTC in Shanghai
    await page.click('.list li:has-text("Renew the passport") button:has-text("Complete")');
    await expect.poll(() => page.locator('.list li').allTextContents()).not.toEqual(expect.arrayContaining([expect.stringContaining('Renew')]));
    await page.selectOption('main select', 'true');
    await page.waitForSelector('.list li.done:has-text("Renew the passport")');
    // "Any" shows the open todos and the completed ones (the API lists open ones unless asked).
    await page.selectOption('main select', '');
    // (The completed list stays on screen until both lists are read: wait for the whole.)
    await expect.poll(() => page.locator('.list li').allTextContents()).toEqual([expect.stringContaining('给妈妈打电话'), expect.stringContaining('Renew the passport')]);
    expect(await page.locator('.list li.done').allTextContents()).toEqual([expect.stringContaining('Renew the passport')]);
    await page.selectOption('main select', 'false');
    await page.click('.list li:has-text("给妈妈打电话") button:has-text("Delete")');
    await expect.poll(() => page.locator('.list li').count()).toBe(0);
  });

  it('shows how a todo repeats and its next time; done this time moves it on, ending the series completes it (en, zh)', async () => {
    await api(server.url, key, 'POST', `${user}/todos`, { content: 'Team standup', dueAt: '2030-01-07T01:00:00Z', repeat: { every: 'week', weekdays: [1, 2, 3, 4, 5] } });
    await api(server.url, key, 'POST', `${user}/todos`, { content: '每天早上八点吃药' });
    await page.goto(`${server.url}/#/todos`);
    const standup = '.list li:has-text("Team standup")';
    await page.waitForSelector(standup);
    expect(await page.textContent(`${standup} .tag`)).toBe('every weekday');
    expect(await page.textContent(standup)).toContain('Next');
    expect(await page.textContent(standup)).toContain('09:00'); // 01:00 UTC in Shanghai
    expect(await page.textContent('.list li:has-text("吃药") .tag')).toBe('every day');
    await shot(page, 'todos-repeating');
    await page.click(`${standup} button:has-text("Done this time")`);
    // Monday's standup done ahead of time: Tuesday's is next.
    await expect.poll(() => page.textContent(standup)).toContain('8 Jan 2030');
    await page.click(`${standup} button:has-text("End the series")`);
    await expect.poll(() => page.locator(standup).count()).toBe(0);
    await page.selectOption('main select', 'true');
    await page.waitForSelector(`.list li.done:has-text("Team standup")`);
    await page.selectOption('main select', 'false');
    await page.click('.list li:has-text("吃药") button:has-text("Delete")');
    await expect.poll(() => page.locator('.list li').count()).toBe(0);
  });

  it('moves a todo to the time typed as said; a time that is none shows the server\'s error and moves nothing (zh, en)', async () => {
    await api(server.url, key, 'POST', `${user}/todos`, { content: '明天下午三点给老板打电话' });
    await api(server.url, key, 'POST', `${user}/todos`, { content: 'Call the plumber tomorrow at 3pm' });
    await page.goto(`${server.url}/#/todos`);
    const boss = '.list li:has-text("给老板打电话")';
    await page.waitForSelector(boss);
    expect(await page.textContent(boss)).toContain('15:00');
    await page.click(`${boss} button:has-text("Move")`);
    await page.fill(`${boss} form input >> nth=1`, '下午四点');
    await page.click(`${boss} form button[type=submit]`);
    // The day kept, the time moved; the words say the new time; the form closes.
    await expect.poll(() => page.textContent(boss)).toContain('16:00给老板打电话');
    expect(await page.locator(`${boss} form`).count()).toBe(0);
    expect(await page.textContent(`${boss} span.muted`)).toContain('16:00');
    // The reminder keeps its hour ahead; then it comes as far ahead as typed, the time and words staying.
    expect(await page.textContent(`${boss} span.small`)).toContain('Reminder: ');
    expect(await page.textContent(`${boss} span.small`)).toContain('15:00');
    await page.click(`${boss} button:has-text("Move")`);
    await page.fill(`${boss} form input >> nth=2`, '提前半小时');
    await page.click(`${boss} form button[type=submit]`);
    await expect.poll(() => page.textContent(`${boss} span.small`)).toContain('15:30');
    expect(await page.textContent(boss)).toContain('16:00给老板打电话');

    const plumber = '.list li:has-text("Call the plumber")';
    await page.click(`${plumber} button:has-text("Move")`);
    await page.fill(`${plumber} form input >> nth=1`, 'the blue room');
    await page.click(`${plumber} form button[type=submit]`);
    // The error shows in the form that failed, in the page's language, with the server's words kept.
    await page.waitForSelector(`${plumber} form .error:has-text("INVALID_INPUT")`);
    expect(await page.textContent(`${plumber} form .error`)).toContain('The server did not accept this:');
    expect(await page.locator('.error button:has-text("Retry")').count()).toBe(0);
    expect(await page.textContent(plumber)).toContain('15:00');
    await page.fill(`${plumber} form input >> nth=1`, 'Monday at 10am');
    await shot(page, 'todos-move');
    await page.click(`${plumber} form button[type=submit]`);
    await expect.poll(() => page.textContent(`${plumber} span.muted`)).toContain('10:00');
    await page.click(`${plumber} button:has-text("Move")`);
    await page.fill(`${plumber} form input >> nth=2`, 'whenever');
    await page.click(`${plumber} form button[type=submit]`);
    await page.waitForSelector(`${plumber} form .error:has-text("No reminder time found")`);
    await page.fill(`${plumber} form input >> nth=2`, 'the night before');
    await page.click(`${plumber} form button[type=submit]`);
    await expect.poll(() => page.textContent(`${plumber} span.small`)).toContain('20:00');
    await shot(page, 'todos-remind');
    await page.click(`${boss} button:has-text("Delete")`);
    await page.click(`${plumber} button:has-text("Delete")`);
    await expect.poll(() => page.locator('.list li').count()).toBe(0);
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
});
