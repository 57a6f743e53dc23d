/// <reference lib="dom" />
// page.evaluate callbacks run in the browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, E2E_TIMEOUT, launchBrowser, shot } from './browser.js';
import { startTestServer, type TestServer } from './server.js';
import { api, signedInPage } from './helpers.js';

interface Seen { id: string; content: string; kind: string; importance: number; structuredData?: Record<string, unknown> }

/**
 * Editing a memory while another client changes it (the tester's lost update), empty importance
 * fields, and the structured data of a hand-edited content: in the page, in Chinese and English.
 */
describe.runIf(browserAvailable)('web page: editing a memory someone else changes (Chromium)', { timeout: E2E_TIMEOUT }, () => {
  let server: TestServer;
  let browser: Browser;
  let key: string;
  const pageErrors: string[] = [];
  const memoryPath = (id: string) => `/v1/users/li-ming/memories/${id}`;
  const read = async (id: string) => (await api(server.url, key, 'GET', memoryPath(id))) as Seen;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    key = (await server.createKey('acme')).key;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, 60_000);

  const open = async (locale: 'zh-CN' | 'en-US'): Promise<Page> => {
    const page = await signedInPage(browser, server.url, key, 'li-ming', { locale });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    return page;
  };

  it.each([
    ['zh-CN', '用户每天早上喝咖啡', '用户每天早上喝两杯咖啡', '编辑', '保存', '载入最新版本', '0.90', '偏好', 'memory-edit-conflict-zh'],
    ['en-US', 'The user drinks coffee every morning', 'The user drinks two cups of coffee every morning', 'Edit', 'Save', 'Load the current version', '0.90', 'preference', 'memory-edit-conflict-en'],
  ] as const)('%s: another client\'s change during an edit is kept; the save is refused, then made on the current version', async (locale, content, edited, editLabel, saveLabel, reloadLabel, shownImportance, shownKind, name) => {
    const page = await open(locale);
    const { id } = (await api(server.url, key, 'POST', '/v1/users/li-ming/memories', { content, kind: 'pattern', importance: 0.3 })) as Seen;
    await page.goto(`${server.url}/#/memory/${id}`);
    await page.waitForSelector('.memory-content');
    await page.click(`article button:text-is("${editLabel}")`);
    await page.waitForSelector('form.editor');

    // Another client, while the editor is open.
    await api(server.url, key, 'PATCH', memoryPath(id), { importance: 0.9, kind: 'preference' });
    // The card beside the editor updates live, and the editor says its copy is older.
    await page.waitForSelector(`article dl.facts .num:text-is("${shownImportance}")`);
    await page.waitForSelector('form.editor .conflict[role=status]');
    expect(await page.inputValue('#edit-importance')).toBe('0.3');

    await page.fill('#edit-content', edited);
    await page.click(`form.editor button[type=submit]:text-is("${saveLabel}")`);
    await page.waitForSelector('form.editor .conflict[role=alert][data-code=PRECONDITION_FAILED]');
    // Refused: the other client's change stands, the typed text is still in the editor.
    expect(await read(id)).toMatchObject({ content, kind: 'preference', importance: 0.9 });
    expect(await page.inputValue('#edit-content')).toBe(edited);
    const message = await page.textContent('form.editor .conflict');
    expect(message).toContain(locale === 'zh-CN' ? '没有保存' : 'not saved');
    expect(message).toContain(locale === 'zh-CN' ? '重要性' : 'importance');
    await shot(page, `${name}-refused`);

    await page.click(`form.editor button:text-is("${reloadLabel}")`);
    await page.waitForSelector('form.editor p.note[role=status]');
    expect(await page.inputValue('#edit-content')).toBe(edited);
    expect(await page.inputValue('#edit-kind')).toBe('preference');
    expect(await page.inputValue('#edit-importance')).toBe('0.9');
    await shot(page, `${name}-reloaded`);

    await page.click(`form.editor button[type=submit]:text-is("${saveLabel}")`);
    await page.waitForSelector(`.memory-content:text-is("${edited}")`);
    expect(await read(id)).toMatchObject({ content: edited, kind: 'preference', importance: 0.9 });
    expect(await page.textContent('article .tag')).toBe(shownKind);
    const history = (await api(server.url, key, 'GET', `${memoryPath(id)}/history`)) as { items: Array<{ changed: string[]; actor: string }> };
    expect(history.items.map((h) => h.changed.filter((f) => ['content', 'kind', 'importance'].includes(f)).sort())).toEqual([['content', 'importance', 'kind'], ['importance', 'kind'], ['content']]);
    await shot(page, `${name}-saved`);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it('an empty importance is the default when adding and unchanged when editing, never 0 (zh)', async () => {
    const page = await open('zh-CN');
    await page.goto(`${server.url}/#/memories`);
    await page.click('button:text-is("添加记忆")');
    await page.fill('#add-content', '用户喜欢在周末爬山');
    await page.fill('#add-importance', '');
    expect(await page.getAttribute('#add-importance', 'placeholder')).toBe('默认 0.5');
    await page.click('form.add-form button[type=submit]');
    await page.waitForSelector('table.memories a:text-is("用户喜欢在周末爬山")');
    const id = (await page.getAttribute('table.memories tr:has(a:text-is("用户喜欢在周末爬山"))', 'data-memory-id'))!;
    expect((await read(id)).importance).toBe(0.5);

    await page.goto(`${server.url}/#/memory/${id}`);
    await page.click('article button:text-is("编辑")');
    await page.fill('#edit-importance', '');
    expect(await page.getAttribute('#edit-importance', 'placeholder')).toBe('不变（0.50）');
    await page.fill('#edit-content', '用户喜欢在周末爬香山');
    await page.click('form.editor button[type=submit]');
    await page.waitForSelector('.memory-content:text-is("用户喜欢在周末爬香山")');
    expect((await read(id)).importance).toBe(0.5);
    expect(pageErrors).toEqual([]);
    await page.context().close();
  });

  it.each([
    ['zh-CN', '我对花生过敏', '用户对花生和芒果过敏', '编辑', '结构化数据'],
    ['en-US', 'I am allergic to peanuts', 'The user is allergic to peanuts and mangoes', 'Edit', 'Structured data'],
  ] as const)('%s: the structured data read from the old wording is gone after the content is edited', async (locale, said, edited, editLabel, heading) => {
    const page = await open(locale);
    const session = `allergy-${locale}`;
    await api(server.url, key, 'POST', `/v1/users/li-ming/sessions/${session}/messages`, { messages: [{ role: 'user', content: said }] });
    await api(server.url, key, 'POST', `/v1/users/li-ming/sessions/${session}/extract`);
    const page1 = (await api(server.url, key, 'GET', '/v1/users/li-ming/memories?limit=200')) as { items: Seen[] };
    const m = page1.items.find((x) => x.structuredData?.slot === 'allergy' && (locale === 'zh-CN' ? x.content.includes('花生') : x.content.includes('peanuts')))!;
    await page.goto(`${server.url}/#/memory/${m.id}`);
    await page.waitForSelector(`article h2:text-is("${heading}")`);
    await page.click(`article button:text-is("${editLabel}")`);
    await page.fill('#edit-content', edited);
    await page.click('form.editor button[type=submit]');
    await page.waitForSelector(`.memory-content:text-is("${edited}")`);
    expect(await page.locator(`article h2:text-is("${heading}")`).count()).toBe(0);
    expect((await read(m.id)).structuredData).toBeUndefined();
    await shot(page, `memory-edit-structured-${locale}`);
    await page.context().close();
  });
});
