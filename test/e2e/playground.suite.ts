/// <reference lib="dom" />
// page.evaluate callbacks run in the browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MockLanguageModelV3 } from 'ai/test';
import { browserAvailable, E2E_TIMEOUT, launchBrowser, shot } from './browser.js';
import { startTestServer, type TestServer } from './server.js';
import { pickUser, signIn } from './helpers.js';

async function say(page: Page, text: string): Promise<void> {
  const before = await page.locator('.chat .messages li').count();
  await page.fill('#play-input', text);
  await page.click('.chat button[type=submit]');
  await expect.poll(() => page.locator('.chat .messages li').count()).toBe(before + 1);
}

describe.runIf(browserAvailable)('web page: playground (Chromium)', { timeout: E2E_TIMEOUT }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let withModel: TestServer | undefined;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    const { key } = await server.createKey('acme');
    const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 1000 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await signIn(page, server.url, key);
    await pickUser(page, 'wang-fang');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await withModel?.close();
  }, 60_000);

  it('extracts a Chinese conversation, then shows recall with score parts and the context block', async () => {
    await page.goto(`${server.url}/#/playground`);
    await page.fill('#play-session', 'zh-chat');
    await page.press('#play-session', 'Tab');
    await say(page, '我叫王芳，我喜欢猫。');
    // No model on this server: the page says the heuristic extractor runs and nobody answers.
    expect(await page.textContent('.note')).toContain('未配置语言模型');
    await say(page, '下周五我要去东京出差。');
    await page.click('button:has-text("立即提取")');
    await page.waitForSelector('#ops-h');
    expect(await page.textContent('.ops')).toContain('东京');
    expect(await page.locator('.ops li.op-create, .ops li.op-add').count()).toBeGreaterThanOrEqual(2);
    expect(await page.textContent('.ops')).toContain('新增');

    await say(page, '周五去东京有什么推荐？');
    await page.waitForSelector('table.recall');
    const first = page.locator('table.recall tbody tr').first();
    expect(await first.locator('.content-cell').textContent()).toContain('东京');
    // Every score part has a column; the final score is a number.
    expect(await page.locator('table.recall thead th').allTextContents()).toEqual(['内容', '总分', '相关度', '向量', '关键词', '新近度', '重要性']);
    expect(Number(await first.locator('td').nth(1).textContent())).toBeGreaterThan(0);
    const block = await page.textContent('.context-block');
    expect(block).toContain('东京');
    expect(block).toContain('<memories>');
    expect(await page.textContent('.tokens')).toMatch(/^\d+ 个 token$/);
    await shot(page, 'playground-zh');
  });

  it('does the same for an English conversation', async () => {
    await page.selectOption('select[aria-label="语言"]', 'en');
    await page.fill('#play-session', 'en-chat');
    await page.press('#play-session', 'Tab');
    await expect.poll(() => page.locator('.chat .messages li').count()).toBe(0);
    await say(page, 'My name is Sam and I love hiking.');
    await say(page, 'I am flying to Berlin next Tuesday for a conference.');
    await page.click('button:has-text("Extract now")');
    await expect.poll(() => page.textContent('.ops')).toContain('Berlin');
    expect(await page.textContent('#ops-h + p')).toContain('Added');
    await say(page, 'What should I pack for Berlin?');
    await expect.poll(() => page.locator('table.recall tbody tr').first().locator('.content-cell').textContent()).toContain('Berlin');
    const block = await page.textContent('.context-block');
    expect(block).toContain('What you remember about the user');
    expect(block).toContain('Berlin');
    expect(await page.textContent('.tokens')).toMatch(/^\d+ tokens$/);
    await shot(page, 'playground-en');
  });

  it('with a model configured, the assistant answers and the page says so', async () => {
    withModel = await startTestServer({ chat: replyingModel('周五可以去浅草寺和筑地市场。') });
    const { key } = await withModel.createKey('acme');
    await signIn(page, withModel.url, key);
    await pickUser(page, 'wang-fang');
    await page.goto(`${withModel.url}/#/playground`);
    await page.fill('#play-input', 'What should I do in Tokyo on Friday?');
    await page.click('.chat button[type=submit]');
    await page.waitForSelector('.bubble.role-assistant:text-is("周五可以去浅草寺和筑地市场。")');
    expect(await page.textContent('.note')).toContain('已配置语言模型');
  });
});

/** A chat model that always answers `text` (the AI SDK's own mock). */
function replyingModel(text: string): MockLanguageModelV3 {
  const usage = { inputTokens: { total: 5, noCache: 5, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 3, text: 3, reasoning: undefined } };
  return new MockLanguageModelV3({
    doGenerate: async () => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }),
  });
}
