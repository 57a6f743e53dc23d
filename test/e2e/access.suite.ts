/// <reference lib="dom" />
// page.evaluate callbacks run in the browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, E2E_TIMEOUT, launchBrowser, shot } from './browser.js';
import { startTestServer, type TestServer } from './server.js';
import { addMemory, api, pickUser, rowTexts, signIn } from './helpers.js';

describe.runIf(browserAvailable)('web page: keys, isolation, language, accessibility (Chromium)', { timeout: E2E_TIMEOUT }, () => {
  let server: TestServer;
  let browser: Browser;
  let acme: { key: string; id: string };
  let globex: { key: string; id: string };
  let acmeSecretId: string;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    acme = await server.createKey('acme');
    globex = await server.createKey('globex');
    acmeSecretId = await addMemory(server.url, acme.key, 'alice', 'acme 的机密：alice likes the blue project');
    await addMemory(server.url, globex.key, 'alice', 'globex alice plays tennis');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, 60_000);

  const newPage = async (locale: string): Promise<Page> => {
    const context = await browser.newContext({ locale, viewport: { width: 1200, height: 800 } });
    context.setDefaultTimeout(15_000);
    return context.newPage();
  };

  it("never shows one tenant's users' data under another tenant's key", async () => {
    const page = await newPage('en-US');
    await signIn(page, server.url, globex.key);
    await pickUser(page, 'alice');
    await expect.poll(() => rowTexts(page)).toEqual(['globex alice plays tennis']);
    // Opening acme's memory by id under globex's key: not found, with the request id to report.
    await page.goto(`${server.url}/#/memory/${acmeSecretId}`);
    await page.waitForSelector('.error');
    expect(await page.textContent('.error')).toContain('NOT_FOUND');
    expect(await page.textContent('.error .request-id')).toMatch(/request id: \S+/);
    expect(await page.textContent('body')).not.toContain('机密');
    await shot(page, 'isolation-not-found');
  });

  it('draws the operator charts from /metrics for the admin key; a tenant key has no Operator tab, and the page says why', async () => {
    const page = await newPage('en-US');
    await signIn(page, server.url, acme.key);
    await page.goto(`${server.url}/#/operator`);
    await page.waitForSelector('.operator-admin-only');
    expect(await page.textContent('.operator-admin-only')).toContain('admin key');
    expect(await page.locator('nav.tabs a[href$="operator"]').count()).toBe(0);
    expect(await page.locator('main .error, main figure').count()).toBe(0);
    await shot(page, 'operator-tenant');
    await addMemory(server.url, server.adminKey, 'ops-user', 'operator sample: 喜欢咖啡', 'preference');
    await signIn(page, server.url, server.adminKey);
    await api(server.url, server.adminKey, 'POST', '/v1/users/ops-user/search', { query: '咖啡', limit: 5 });
    await page.goto(`${server.url}/#/operator`);
    await page.waitForSelector('svg.chart');
    expect(await page.locator('nav.tabs a[href$="operator"]').count()).toBe(1);
    const charts = page.locator('svg.chart');
    expect(await charts.count()).toBeGreaterThanOrEqual(2);
    expect(await charts.first().textContent()).toContain('preference');
    await shot(page, 'operator');
  });

  it('asks nothing it knows would fail: no 401 before a key, no /metrics for a tenant key, no 404 for a new playground session', async () => {
    const page = await newPage('zh-CN');
    const failed: string[] = [];
    page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`); });
    page.on('console', (m) => { if (m.type() === 'error') failed.push(`console: ${m.text()}`); });
    const settled = () => page.waitForFunction(() => document.querySelector('main h1') !== null && !document.querySelector('main [aria-live="polite"].muted'));
    await page.goto(server.url);
    await page.waitForSelector('#api-key');
    await page.fill('#api-key', acme.key);
    await page.press('#api-key', 'Enter');
    await page.waitForSelector('nav.tabs');
    await pickUser(page, 'alice');
    for (const screen of ['memories', 'todos', 'episodes', 'profile', 'settings', 'data', 'playground', 'operator']) {
      await page.goto(`${server.url}/#/${screen}`);
      await settled();
    }
    expect(await page.textContent('.operator-admin-only')).toContain('管理员密钥');
    // The playground's session exists from its first message on: then its messages are read.
    await page.goto(`${server.url}/#/playground`);
    await settled();
    await page.fill('#play-input', '我喜欢喝茶');
    await page.click('button:has-text("发送")');
    await page.waitForSelector('ol.messages li:has-text("我喜欢喝茶")');
    await page.click('button:has-text("更换密钥")');
    await page.fill('#api-key', server.adminKey);
    await page.press('#api-key', 'Enter');
    await page.waitForSelector('nav.tabs a[href$="operator"]');
    await page.goto(`${server.url}/#/operator`);
    await page.waitForSelector('svg.chart');
    expect(failed).toEqual([]);
  });

  it("a changed key starts from its own user: the one it is bound to, else none of the old key's (nor its opened memory)", async () => {
    const liMing = await server.createKey('acme', 'li-ming');
    const page = await newPage('zh-CN');
    const selected = () => page.evaluate(() => (document.querySelector('#user-select') as HTMLSelectElement | null)?.value);
    await signIn(page, server.url, liMing.key);
    // The bound user is chosen at once, though they have nothing stored yet (no users are listed).
    await expect.poll(selected).toBe('li-ming');
    await pickUser(page, 'many');
    await page.waitForSelector('.error[data-code="FORBIDDEN"]');
    await page.goto(`${server.url}/#/memory/${acmeSecretId}`);
    await page.click('button:has-text("更换密钥")');
    await page.fill('#api-key', globex.key);
    await page.press('#api-key', 'Enter');
    await page.waitForSelector('nav.tabs');
    // globex's own first user, not "many" typed under acme's key; the acme memory's page is not reopened.
    await expect.poll(selected).toBe('alice');
    expect(await page.evaluate(() => location.hash)).toBe('#/memories');
    await expect.poll(() => rowTexts(page)).toEqual(['globex alice plays tennis']);
    await shot(page, 'key-change-globex');
    await page.click('button:has-text("更换密钥")');
    await page.fill('#api-key', server.adminKey);
    await page.press('#api-key', 'Enter');
    await page.waitForSelector('nav.tabs');
    const adminUsers = (await api(server.url, server.adminKey, 'GET', '/v1/users')) as { items: Array<{ userId: string }> };
    await expect.poll(selected).toBe(adminUsers.items[0]?.userId ?? '');
    expect(await page.locator('#user-select option[value="alice"], #user-select option[value="li-ming"]').count()).toBe(0);
    // Back to the bound key: its user again, whatever the admin had chosen.
    await pickUser(page, 'someone-else');
    await page.click('button:has-text("更换密钥")');
    await page.fill('#api-key', liMing.key);
    await page.press('#api-key', 'Enter');
    await expect.poll(selected).toBe('li-ming');
  });

  it('a wrong key shows a clear message and lets the user enter another', async () => {
    const page = await newPage('en-US');
    await page.goto(server.url);
    await page.fill('#api-key', 'ek_wrong');
    await page.press('#api-key', 'Enter');
    await page.waitForSelector('#key-error');
    expect(await page.textContent('#key-error')).toContain('not accepted');
    await shot(page, 'key-rejected');
    await page.fill('#api-key', acme.key);
    await page.press('#api-key', 'Enter');
    await page.waitForSelector('nav.tabs');
  });

  it('a revoked key sends the user back to the key screen', async () => {
    const key = await server.createKey('acme');
    const page = await newPage('zh-CN');
    await signIn(page, server.url, key.key);
    await server.keys.revoke(key.id);
    await page.reload();
    await page.waitForSelector('#key-error');
    expect(await page.textContent('#key-error')).toContain('吊销');
  });

  it('still says the key was refused after a reload, until another key is entered', async () => {
    const key = await server.createKey('acme');
    const page = await newPage('en-US');
    await signIn(page, server.url, key.key);
    // The first screen loaded, so no request of the page is in flight when the key is revoked.
    await page.waitForSelector('main h1');
    await page.waitForFunction(() => !document.querySelector('main [aria-live="polite"].muted'));
    await server.keys.revoke(key.id);
    // A request of the open page meets the refusal first; the reload comes after it.
    await page.click('nav.tabs a[href$="todos"]');
    await page.waitForSelector('#key-error');
    await page.reload();
    await page.waitForSelector('#api-key');
    expect(await page.textContent('#key-error')).toContain('revoked');
    await page.fill('#api-key', acme.key);
    await page.press('#api-key', 'Enter');
    await page.waitForSelector('nav.tabs');
    await page.click('button:has-text("Change key")');
    await page.waitForSelector('#api-key');
    expect(await page.locator('#key-error').count()).toBe(0);
  });

  it('follows the browser language and switches on demand, remembering the choice', async () => {
    const page = await newPage('zh-CN');
    await signIn(page, server.url, acme.key);
    expect(await page.locator('nav.tabs a').first().textContent()).toBe('记忆');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    await page.selectOption('select[aria-label="语言"]', 'en');
    expect(await page.locator('nav.tabs a').first().textContent()).toBe('Memories');
    await page.reload();
    await page.waitForSelector('nav.tabs');
    expect(await page.locator('nav.tabs a').nth(1).textContent()).toBe('Todos');
    const en = await newPage('en-GB');
    await signIn(en, server.url, acme.key);
    expect(await en.locator('nav.tabs a').first().textContent()).toBe('Memories');
  });

  it('has labels on every control, keyboard navigation and readable contrast', async () => {
    const page = await newPage('en-US');
    await signIn(page, server.url, acme.key);
    await pickUser(page, 'alice');
    for (const screen of ['memories', 'playground', 'settings', 'todos']) {
      await page.goto(`${server.url}/#/${screen}`);
      await page.waitForSelector('main h1');
      const unlabelled = await page.evaluate(() =>
        Array.from(document.querySelectorAll('input, select, textarea'))
          .filter((el) => {
            const e = el as HTMLInputElement;
            return !(e.labels && e.labels.length > 0) && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby');
          })
          .map((el) => el.outerHTML.slice(0, 80)));
      expect(unlabelled, screen).toEqual([]);
    }
    await page.goto(`${server.url}/#/memories`);
    await page.waitForSelector('button.primary');
    // WCAG AA contrast (4.5:1) of body text, muted text, links and the primary button.
    const ratios = await page.evaluate(() => {
      const rgb = (s: string) => (s.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
      const lum = (c: number[]) => {
        const [r, g, b] = c.map((v) => { const x = v / 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const bgOf = (el: Element | null): number[] => {
        for (let e = el; e; e = e.parentElement) {
          const bg = getComputedStyle(e).backgroundColor;
          if (bg && bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return rgb(bg);
        }
        return [255, 255, 255];
      };
      // Secondary text may not be on screen right now: measure a sample of it.
      const sample = document.createElement('span');
      sample.className = 'muted';
      sample.textContent = 'sample';
      document.querySelector('main')?.append(sample);
      return ['main h1', 'main .muted', 'nav.tabs a:not([aria-current])', 'nav.tabs a[aria-current]', 'button.primary', 'label'].map((sel) => {
        const el = document.querySelector(sel);
        if (!el) return [sel, 0] as const;
        const a = lum(rgb(getComputedStyle(el).color));
        const b = lum(bgOf(el));
        return [sel, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)] as const;
      });
    });
    for (const [sel, ratio] of ratios) expect(ratio, sel).toBeGreaterThanOrEqual(4.5);
    // Keyboard only: Tab to the "Todos" tab and press Enter.
    await page.goto(`${server.url}/#/memories`);
    await page.locator('body').focus();
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.textContent === 'Todos');
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/todos');
  });
});
