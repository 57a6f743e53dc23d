/// <reference lib="dom" />
// page.evaluate callbacks run in the browser.
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';

/** Calls the HTTP API as a key, for seeding data the way any client would. */
export async function api(url: string, key: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

export async function addMemory(url: string, key: string, userId: string, content: string, kind = 'fact'): Promise<string> {
  const m = (await api(url, key, 'POST', `/v1/users/${encodeURIComponent(userId)}/memories`, { content, kind })) as { id: string };
  return m.id;
}

/** Opens the page fresh and enters the key on the key screen. */
export async function signIn(page: Page, url: string, key: string): Promise<void> {
  await page.goto(url);
  await page.evaluate(() => localStorage.clear());
  await page.goto(url);
  await page.fill('#api-key', key);
  await page.press('#api-key', 'Enter');
  await page.waitForSelector('nav.tabs');
}

/**
 * A page in a fresh English browser context (1200×900; `contextOptions` adds to it), signed in with
 * `key` and showing `userId`: the setup the page's suites share.
 */
export async function signedInPage(browser: Browser, url: string, key: string, userId: string, contextOptions: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1200, height: 900 }, ...contextOptions });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  await signIn(page, url, key);
  await pickUser(page, userId);
  return page;
}

export async function pickUser(page: Page, userId: string): Promise<void> {
  await page.fill('#user-input', userId);
  await page.press('#user-input', 'Enter');
  await page.waitForFunction((u) => (document.querySelector('#user-select') as HTMLSelectElement | null)?.value === u, userId);
}

/** Texts of the memory table's content cells, in order. */
export async function rowTexts(page: Page): Promise<string[]> {
  return page.locator('table.memories tbody .content-cell a').allTextContents();
}

/** No element sticks out to the right of the viewport (long words, emoji, RTL). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Answers the open confirm dialog with Confirm (in the page's language) and waits for it to close. */
export async function confirm(page: Page, label = 'Confirm'): Promise<void> {
  await page.click(`dialog.confirm[open] button:text-is("${label}")`);
  await page.waitForSelector('dialog.confirm', { state: 'detached' });
}

/** Switches the page's language with the header's select. */
export async function setLang(page: Page, lang: 'en' | 'zh'): Promise<void> {
  await page.selectOption('header select[aria-label]:not(#user-select)', lang);
  await page.waitForFunction((l) => document.documentElement.lang.startsWith(l), lang);
}
