/// <reference lib="dom" />
// page.evaluate callbacks run in the browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, E2E_TIMEOUT, launchBrowser } from './browser.js';
import { startTestServer, type TestServer } from './server.js';
import { addMemory, api, pickUser, signIn } from './helpers.js';

describe.runIf(browserAvailable)('web page: relations of a memory (Chromium, issue 12 item 6)', { timeout: E2E_TIMEOUT }, () => {
  let server: TestServer;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    key = (await server.createKey('acme')).key;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, 60_000);

  it.each([
    ['zh-CN', '用户住在上海', '用户每天在上海坐地铁上班', '添加关联', '移除'],
    ['en-US', 'The user lives in Berlin', 'The user commutes by U-Bahn in Berlin', 'Add relation', 'Remove'],
  ])('%s: adds a relation to another memory by its id and removes it', async (locale, home, commute, addLabel, removeLabel) => {
    const user = `rel-${locale}`;
    const a = await addMemory(server.url, key, user, home, 'identity');
    const b = await addMemory(server.url, key, user, commute);
    const context = await browser.newContext({ locale, viewport: { width: 1200, height: 800 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await signIn(page, server.url, key);
      await pickUser(page, user);
      await page.goto(`${server.url}/#/memory/${b}`);
      await page.waitForSelector('.memory-content');
      await page.selectOption('select[name=relation-type]', 'supports');
      await page.fill('input[name=relation-target]', a);
      await page.click(`form.relation-form button:has-text("${addLabel}")`);
      await page.waitForSelector(`ul.relations li a[href$="${a}"]`);
      const stored = (await api(server.url, key, 'GET', `/v1/users/${user}/memories/${a}/relations`)) as { items: Array<{ id: string; sourceId: string; type: string }> };
      expect(stored.items.map((r) => [r.sourceId, r.type])).toEqual([[b, 'supports']]);

      // An unknown id is refused visibly, nothing stored.
      await page.fill('input[name=relation-target]', 'no-such-memory');
      await page.click(`form.relation-form button:has-text("${addLabel}")`);
      await page.waitForSelector('[role=alert]');

      await page.click(`ul.relations li[data-relation-id="${stored.items[0]!.id}"] button:has-text("${removeLabel}")`);
      await expect.poll(async () => page.locator('ul.relations li').count()).toBe(0);
      expect(((await api(server.url, key, 'GET', `/v1/users/${user}/memories/${a}/relations`)) as { items: unknown[] }).items).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
