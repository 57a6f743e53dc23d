/// <reference lib="dom" />
// page.evaluate callbacks run in the browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserAvailable, E2E_TIMEOUT, launchBrowser, shot } from './browser.js';
import { startTestServer, type TestServer } from './server.js';
import { addMemory, api, horizontalOverflow, pickUser, rowTexts, setLang, signIn } from './helpers.js';

describe.runIf(browserAvailable)('web page: memories (Chromium)', { timeout: E2E_TIMEOUT }, () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let key: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    key = (await server.createKey('acme')).key;
    await addMemory(server.url, key, 'li-ming', '用户住在上海', 'identity');
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('dialog', (d) => { pageErrors.push(`dialog: ${d.message()}`); void d.dismiss(); });
    await signIn(page, server.url, key);
    await pickUser(page, 'li-ming');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, 60_000);

  it('adds, searches, edits, deletes and restores a memory, in Chinese and English', async () => {
    for (const [content, kind] of [['我喜欢猫，尤其是橘猫', 'preference'], ['Prefers a window seat on long flights', 'preference']]) {
      await page.click('button:has-text("Add memory")');
      await page.fill('#add-content', content!);
      await page.selectOption('#add-kind', kind!);
      await page.click('form.add-form button[type=submit]');
      await page.waitForSelector(`table.memories a:text-is("${content}")`);
    }
    await shot(page, 'memories-en');

    await page.fill('input[name=q]', '橘猫');
    await page.press('input[name=q]', 'Enter');
    await expect.poll(async () => (await rowTexts(page))[0]).toBe('我喜欢猫，尤其是橘猫');
    // A search lists what matches (the context block's floor), best first; every match on request.
    expect(await page.textContent('.search-note')).toContain('Only memories that match');
    expect(await rowTexts(page)).toEqual(['我喜欢猫，尤其是橘猫']);
    expect(await page.isDisabled('select[name=sort]')).toBe(true);
    await page.click('.search-note button:has-text("Show every match")');
    await expect.poll(async () => (await rowTexts(page)).length).toBeGreaterThan(1);
    expect(await page.textContent('.search-note')).toContain('Best matches first');
    await shot(page, 'memories-search-all');
    await page.fill('input[name=q]', 'window seat');
    await page.press('input[name=q]', 'Enter');
    await expect.poll(async () => (await rowTexts(page))[0]).toBe('Prefers a window seat on long flights');

    await page.click('table.memories a:text-is("Prefers a window seat on long flights")');
    await page.waitForSelector('.memory-content');
    await page.click('button:has-text("Edit")');
    await page.fill('#edit-content', 'Prefers an aisle seat on long flights');
    await page.fill('#edit-importance', '0.8');
    await page.click('form.editor button[type=submit]');
    await page.waitForSelector('.memory-content:text-is("Prefers an aisle seat on long flights")');
    // The history shows who changed what, before and after.
    await page.waitForSelector('.timeline li.action-update .before:text-is("Prefers a window seat on long flights")');
    expect(await page.textContent('.timeline li.action-update .after')).toContain('aisle');
    expect(await page.getAttribute('.timeline li.action-update .actor', 'data-actor')).toBe('user');
    expect(await page.textContent('.timeline li.action-update strong')).toBe('updated');
    await shot(page, 'memory-page');

    await page.click('article button:has-text("Delete")');
    await page.click('dialog.confirm button:has-text("Confirm")');
    await page.waitForSelector('article button:has-text("Restore")');
    expect(await page.textContent('article .tag:nth-of-type(2)')).toBe('deleted');
    await page.click('article button:has-text("Restore")');
    await page.waitForSelector('article button:has-text("Delete")');
    expect(await page.textContent('article')).toContain('active');
    expect(pageErrors).toEqual([]);
  });

  it('bulk deletes the selected memories; they stay restorable under "deleted"', async () => {
    const ids = [];
    for (const c of ['bulk one: 喜欢喝绿茶', 'bulk two: plays chess on Sundays', 'bulk three: 养了一只狗']) ids.push(await addMemory(server.url, key, 'li-ming', c));
    await page.goto(`${server.url}/#/memories`);
    await page.waitForSelector('table.memories a:text-is("bulk two: plays chess on Sundays")');
    await page.check(`tr[data-memory-id="${ids[0]}"] input[type=checkbox]`);
    await page.check(`tr[data-memory-id="${ids[1]}"] input[type=checkbox]`);
    expect(await page.textContent('.bulk span')).toBe('2 selected');
    await page.click('button:has-text("Delete selected")');
    await page.click('dialog.confirm button:has-text("Confirm")');
    await expect.poll(() => rowTexts(page)).not.toContain('bulk two: plays chess on Sundays');
    const rows = await rowTexts(page);
    expect(rows).not.toContain('bulk one: 喜欢喝绿茶');
    expect(rows).toContain('bulk three: 养了一只狗');
    await page.selectOption('select[name=status]', 'deleted');
    await page.click('form.filters button[type=submit]');
    await expect.poll(() => rowTexts(page)).toEqual(expect.arrayContaining(['bulk one: 喜欢喝绿茶', 'bulk two: plays chess on Sundays']));
    // A date range that ends before today holds none of them.
    await page.fill('input[name=to]', '2020-01-01');
    await page.click('form.filters button[type=submit]');
    await expect.poll(() => rowTexts(page)).toEqual([]);
    await page.fill('input[name=to]', '');
    await page.selectOption('select[name=kind]', 'identity');
    await page.selectOption('select[name=status]', 'active');
    await page.click('form.filters button[type=submit]');
    await expect.poll(() => rowTexts(page)).toEqual(['用户住在上海']);
    await page.selectOption('select[name=kind]', '');
    await page.click('form.filters button[type=submit]');
  });

  it('renders stored HTML as text: a <script> or <img onerror> never runs', async () => {
    const evil = ['<img src=x onerror="window.__xss=1">', '<script>window.__xss=2</script>记住这个', '<svg onload="window.__xss=3">'];
    const ids = [];
    for (const c of evil) ids.push(await addMemory(server.url, key, 'li-ming', c));
    await page.goto(`${server.url}/#/memories`);
    await page.selectOption('select[name=status]', 'active');
    await page.click('form.filters button[type=submit]');
    await page.waitForSelector(`tr[data-memory-id="${ids[0]}"]`);
    expect(await rowTexts(page)).toEqual(expect.arrayContaining(evil));
    await page.goto(`${server.url}/#/memory/${ids[0]}`);
    await page.waitForSelector('.memory-content');
    expect(await page.textContent('.memory-content')).toBe(evil[0]);
    expect(await page.locator('main img, main script, main svg[onload]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(pageErrors).toEqual([]);
  });

  it('keeps the layout with very long, emoji and right-to-left memories', async () => {
    const long = `${'很长的记忆没有空格'.repeat(120)}${'x'.repeat(3000)}`;
    const texts = [long, '🎉🐱👩‍👩‍👧 loves emoji 喜欢表情 🇨🇳🇬🇧', 'המשתמש אוהב חתולים and cats', 'يحب المستخدم القطط'];
    const ids = [];
    for (const c of texts) ids.push(await addMemory(server.url, key, 'li-ming', c));
    await page.goto(`${server.url}/#/memories`);
    await page.waitForSelector(`tr[data-memory-id="${ids[3]}"]`);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    const rowHeight = await page.locator(`tr[data-memory-id="${ids[0]}"]`).evaluate((el) => el.getBoundingClientRect().height);
    expect(rowHeight).toBeLessThan(200); // clamped to a few lines in the table
    await shot(page, 'memories-long-emoji-rtl');
    await page.goto(`${server.url}/#/memory/${ids[0]}`);
    await page.waitForSelector('.memory-content');
    expect(await page.textContent('.memory-content')).toBe(long);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.goto(`${server.url}/#/memory/${ids[2]}`);
    // The previous memory's content stays on screen until this one has loaded: wait for this one.
    await expect.poll(() => page.textContent('.memory-content')).toBe(texts[2]);
    expect(await page.locator('.memory-content').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    await shot(page, 'memory-rtl');
  });

  it('on a phone each memory is a card whose text has the width; no header overlaps (en, zh)', async () => {
    for (const locale of ['en-US', 'zh-CN']) {
      const phone = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
      phone.setDefaultTimeout(15_000);
      const p = await phone.newPage();
      await signIn(p, server.url, key);
      await pickUser(p, 'li-ming');
      await p.waitForSelector('table.memories tbody .content-cell a');
      const widths = await p.locator('table.memories tbody .content-cell').evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect().width));
      expect(Math.min(...widths), locale).toBeGreaterThan(250);
      // The column headers are hidden on a card list (only the select-all box shows), so none overlap.
      expect(await p.locator('table.memories thead th:nth-child(2)').evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
      expect(await horizontalOverflow(p)).toBeLessThanOrEqual(0);
      await shot(p, `memories-phone-${locale}`);
      await phone.close();
    }
  });

  it('shows a memory extracted in the background without a reload (live events)', async () => {
    await page.goto(`${server.url}/#/memories`);
    await page.selectOption('select[name=status]', 'active');
    await page.click('form.filters button[type=submit]');
    await page.waitForSelector('.live.on');
    await page.evaluate(() => { (window as unknown as { __sameDocument: boolean }).__sameDocument = true; });
    // Another client talks; the server extracts: the open table follows the event stream.
    await api(server.url, key, 'POST', '/v1/users/li-ming/sessions/bg/messages', { messages: [{ role: 'user', content: '我最喜欢的水果是芒果。' }] });
    await api(server.url, key, 'POST', '/v1/users/li-ming/sessions/bg/extract');
    await expect.poll(async () => (await rowTexts(page)).some((t) => t.includes('芒果'))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await page.waitForSelector('.toast:text-is("Extraction finished.")');
  });

  it('opens every other screen without an error', async () => {
    await api(server.url, key, 'PUT', '/v1/users/li-ming/settings', { timeZone: 'Asia/Shanghai' });
    for (const [screen, heading] of [['todos', 'Todos'], ['episodes', 'Episodes'], ['profile', 'Profile'], ['settings', 'Settings for this user'], ['data', 'Export, import, forget'], ['learnings', 'Learnings'], ['playground', 'Playground']]) {
      await page.goto(`${server.url}/#/${screen}`);
      await page.waitForSelector(`main h1:text-is("${heading}")`);
      await page.waitForFunction(() => !document.querySelector('main [aria-live="polite"].muted'));
      expect(await page.locator('main .error').count(), screen).toBe(0);
      await shot(page, `screen-${screen}`);
    }
    await page.goto(`${server.url}/#/settings`);
    expect(await page.inputValue('#setting-timeZone')).toBe('Asia/Shanghai');
  });
  it('lines up the filter labels: the date fields sit level with the selects (en, zh)', async () => {
    for (const lang of ['en', 'zh'] as const) {
      await setLang(page, lang);
      await page.goto(`${server.url}/#/memories`);
      await page.waitForSelector('form.filters input[type=date]');
      const rows = await page.evaluate(() => Array.from(document.querySelectorAll('form.filters > label')).map((l) => {
        const control = l.querySelector('input, select')!;
        return { label: l.firstChild?.textContent ?? '', top: Math.round(l.getBoundingClientRect().top), height: Math.round(control.getBoundingClientRect().height) };
      }));
      expect(rows.length, lang).toBe(8);
      expect(new Set(rows.map((r) => r.top)).size, JSON.stringify(rows)).toBe(1);
      expect(new Set(rows.map((r) => r.height)).size, JSON.stringify(rows)).toBe(1);
    }
    await shot(page, 'memories-filters-zh');
    await setLang(page, 'en');
  });
});
