/// <reference lib="dom" />
// page.evaluate callbacks run in the browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, E2E_TIMEOUT, launchBrowser, shot } from './browser.js';
import { startTestServer, type TestServer } from './server.js';
import { addMemory, api, confirm, horizontalOverflow, setLang, signedInPage } from './helpers.js';

describe.runIf(browserAvailable)('web page: forgetting (Chromium)', { timeout: E2E_TIMEOUT }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let key: string;
  const user = '/v1/users/li-ming';
  const contents = async () => ((await api(server.url, key, 'GET', `${user}/memories`)) as { items: Array<{ content: string }> }).items.map((m) => m.content).sort();

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    key = (await server.createKey('acme')).key;
    // Another user of the tenant, listed in the header from the start.
    await addMemory(server.url, key, 'wang-fang', '用户喜欢爬山', 'preference');
    page = await signedInPage(browser, server.url, key, 'li-ming');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, 60_000);

  it('forgets a topic after asking, says what went, and keeps the rest (en)', async () => {
    await addMemory(server.url, key, 'li-ming', '我在考虑跳槽去一家创业公司', 'plan');
    await addMemory(server.url, key, 'li-ming', '用户喜欢猫', 'preference');
    await page.goto(`${server.url}/#/data`);
    await page.waitForSelector('main h1:text-is("Export, import, forget")');
    expect(await page.isDisabled('form[aria-label="Forget a topic"] button[type=submit]')).toBe(true);
    await page.fill('#forget-topic', '跳槽');
    await page.click('button:has-text("Forget this topic…")');
    expect(await page.textContent('dialog.confirm[open]')).toContain('about “跳槽”');
    // The dry run lists the memory that mentions it, not the others.
    expect(await page.locator('dialog.confirm[open] .forget-preview li').allTextContents()).toEqual(['我在考虑跳槽去一家创业公司']);
    // Cancel erases nothing.
    await page.click('dialog.confirm button:has-text("Cancel")');
    expect(await contents()).toHaveLength(2);
    await page.click('button:has-text("Forget this topic…")');
    await shot(page, 'forget-topic-confirm');
    await confirm(page);
    await page.waitForSelector('[role=status]:has-text("Forgot “跳槽”: 1 memories and episodes and 0 messages erased.")');
    expect(await contents()).toEqual(['用户喜欢猫']);
    expect(await page.inputValue('#forget-topic')).toBe('');
    // A topic nothing is about: said so.
    await page.fill('#forget-topic', 'quantum chromodynamics');
    await page.press('#forget-topic', 'Enter');
    expect(await page.textContent('dialog.confirm[open]')).toContain('No memory mentions it');
    await confirm(page);
    await page.waitForSelector('[role=status]:text-is("Nothing about “quantum chromodynamics” was found; nothing was erased.")');
    expect(await contents()).toEqual(['用户喜欢猫']);
  });

  it('lists what requests in conversation forgot; Undo brings it back, Erase now asks first (en, zh)', async () => {
    const zhao = '/v1/users/zhao-lei';
    const say = (content: string) => api(server.url, key, 'POST', `${zhao}/sessions/s1/messages`, { messages: [{ role: 'user', content }] });
    await addMemory(server.url, key, 'zhao-lei', '用户的前女友叫小美', 'person');
    await addMemory(server.url, key, 'zhao-lei', "The user's ex is named Sarah", 'person');
    await say('我前女友叫小美');
    await say('忘掉我前女友的事');
    await say('My ex is named Sarah');
    await say('forget what I told you about my ex');
    const left = async () => ((await api(server.url, key, 'GET', `${zhao}/memories`)) as { items: Array<{ content: string }> }).items.map((m) => m.content);
    expect(await left()).toEqual([]);
    const other = await signedInPage(browser, server.url, key, 'zhao-lei');
    await other.goto(`${server.url}/#/data`);
    const items = other.locator('.forgotten-list > li');
    await items.nth(1).waitFor();
    // Newest first: the English request, then the Chinese one.
    expect(await other.locator('.forgotten-list .request').allTextContents()).toEqual(['forget what I told you about my ex', '忘掉我前女友的事']);
    expect(await items.nth(1).textContent()).toContain('1 memories, 2 messages');
    await shot(other, 'forgotten-on-request');
    await items.nth(1).locator('button:text-is("Undo")').click();
    await other.waitForSelector('[role=status]:text-is("Brought back: 1 memories, 2 messages, 0 todos.")');
    expect(await left()).toEqual(['用户的前女友叫小美']);
    // The list is read again after the undo: wait for it rather than race it.
    await other.waitForFunction(() => document.querySelectorAll('.forgotten-list > li').length === 1);
    expect(((await api(server.url, key, 'GET', `${zhao}/sessions/s1/messages`)) as { items: Array<{ content: string }> }).items.map((m) => m.content)).toEqual(['我前女友叫小美', '忘掉我前女友的事']);
    expect(await other.locator('.forgotten-list .request').allTextContents()).toEqual(['forget what I told you about my ex']);
    await setLang(other, 'zh');
    await other.click('.forgotten-list button:text-is("立即删除…")');
    expect(await other.textContent('dialog.confirm[open]')).toContain('永久删除“forget what I told you about my ex”遗忘的内容？');
    await shot(other, 'forgotten-erase-confirm-zh');
    await confirm(other, '确认');
    await other.waitForSelector('[role=status]:text-is("已永久删除：1 条记忆、2 条消息。")');
    await other.waitForSelector('.card.forgotten p.muted:text-is("没有可撤销的遗忘请求。")');
    expect(((await api(server.url, key, 'GET', `${zhao}/memories?status=deleted`)) as { items: unknown[] }).items).toEqual([]);
    expect(((await api(server.url, key, 'GET', `${zhao}/sessions/s1/messages`)) as { items: Array<{ content: string }> }).items.map((m) => m.content)).toEqual(['我前女友叫小美', '忘掉我前女友的事']);
    await other.context().close();
    // Gone again, so the next test finds the users it started with.
    await api(server.url, key, 'POST', `${zhao}/forget`, { all: true });
  });

  it('forgets everything about the user only once the user id is typed (zh, narrow)', async () => {
    await api(server.url, key, 'POST', `${user}/todos`, { content: '明天下午三点开会' });
    // Signed in afresh: the header's list, read at sign-in, now holds li-ming (with data) and wang-fang.
    await page.context().close();
    page = await signedInPage(browser, server.url, key, 'li-ming');
    expect(await page.locator('#user-select option').allTextContents()).toEqual(['li-ming', 'wang-fang']);
    await page.setViewportSize({ width: 390, height: 844 });
    await setLang(page, 'zh');
    await page.goto(`${server.url}/#/data`);
    await page.waitForSelector('main h1:text-is("导出、导入与遗忘")');
    await page.click('button:has-text("遗忘一切…")');
    const ok = 'dialog.confirm[open] button:text-is("确认")';
    expect(await page.textContent('dialog.confirm[open]')).toContain('永久删除关于 li-ming 的一切？');
    expect(await page.isDisabled(ok)).toBe(true);
    await page.fill('#forget-all-user', 'li-min');
    expect(await page.isDisabled(ok)).toBe(true);
    await page.fill('#forget-all-user', 'li-ming');
    expect(await page.isDisabled(ok)).toBe(false);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await shot(page, 'forget-all-confirm-zh-narrow');
    await confirm(page, '确认');
    await page.waitForSelector('[role=status]:has-text("关于 li-ming 的一切都已删除")');
    expect(await page.textContent('[role=status]:has-text("关于 li-ming")')).toContain('（2 条记忆、0 条消息）'); // 用户喜欢猫 and the todo's memory
    await shot(page, 'forget-all-done-zh-narrow');
    expect(await contents()).toEqual([]);
    expect(((await api(server.url, key, 'GET', `${user}/todos`)) as { items: unknown[] }).items).toEqual([]);
    await expect(api(server.url, key, 'GET', user)).rejects.toThrow(/404/);
    // The header's list reloaded: once another user is picked, li-ming is no longer offered.
    await page.selectOption('#user-select', 'wang-fang');
    await page.waitForSelector('#user-select option[value="li-ming"]', { state: 'detached' });
    expect(await page.locator('#user-select option').allTextContents()).toEqual(['wang-fang']);
    await page.selectOption('#user-select', 'wang-fang');
    await setLang(page, 'en');
    await page.setViewportSize({ width: 1200, height: 900 });
  });
});
