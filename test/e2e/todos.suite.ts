/// <reference lib="dom" />
// page.evaluate callbacks run in the browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, E2E_TIMEOUT, launchBrowser, shot } from './browser.js';
import { startTestServer, type TestServer } from './server.js';
import { api, confirm, setLang, signedInPage } from './helpers.js';

describe.runIf(browserAvailable)('web page: todos (Chromium)', { timeout: E2E_TIMEOUT }, () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let key: string;
  const user = '/v1/users/li-ming';

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    key = (await server.createKey('acme')).key;
    await api(server.url, key, 'PUT', `${user}/settings`, { timeZone: 'Asia/Shanghai' });
    page = await signedInPage(browser, server.url, key, 'li-ming');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, 60_000);

  it("lists todos with due times in the user's time zone; complete and delete", async () => {
    await api(server.url, key, 'POST', `${user}/todos`, { content: 'Renew the passport', dueAt: '2026-02-01T09:00:00Z' });
    await api(server.url, key, 'POST', `${user}/todos`, { content: '给妈妈打电话' });
    await page.goto(`${server.url}/#/todos`);
    await page.waitForSelector('.list li:has-text("Renew the passport")');
    expect(await page.textContent('.list li:has-text("Renew the passport")')).toContain('17:00'); // 09:00 UTC in Shanghai
    await page.click('.list li:has-text("Renew the passport") button:has-text("Complete")');
    await expect.poll(() => page.locator('.list li').allTextContents()).not.toEqual(expect.arrayContaining([expect.stringContaining('Renew')]));
    // While the completed list loads, the open one is not shown in its place: held back, the answer finds "Loading…".
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    await page.route('**/todos?completed=true*', async (route) => { await held; await route.continue(); });
    await page.selectOption('main select', 'true');
    await page.waitForSelector('main [aria-live="polite"]:text-is("Loading…")');
    expect(await page.locator('.list li').count()).toBe(0);
    expect(await page.locator('main p.muted:text-is("Nothing here yet.")').count()).toBe(0);
    release();
    const done = '.list li.done:has-text("Renew the passport")';
    await page.waitForSelector(done);
    await page.unrouteAll({ behavior: 'wait' });
    // A completed todo says so, and when, not only by its missing buttons.
    expect(await page.textContent(`${done} .tag.done`)).toBe('Done');
    expect(await page.textContent(`${done} .completed-at`)).toMatch(/^Completed: \d{1,2} \w{3} \d{4}, \d{2}:\d{2}$/);
    // "Any" shows the open todos and the completed ones (the API lists open ones unless asked).
    await page.selectOption('main select', '');
    await expect.poll(() => page.locator('.list li').allTextContents()).toEqual([expect.stringContaining('给妈妈打电话'), expect.stringContaining('Renew the passport')]);
    expect(await page.locator('.list li.done').allTextContents()).toEqual([expect.stringContaining('Renew the passport')]);
    expect(await page.locator('.list li .tag.done').count()).toBe(1);
    await setLang(page, 'zh');
    expect(await page.textContent(`${done} .tag.done`)).toBe('已完成');
    expect(await page.textContent(`${done} .completed-at`)).toContain('完成于: ');
    await shot(page, 'todos-any-zh');
    await setLang(page, 'en');
    await page.selectOption('main select', 'false');
    // Deleting asks first: Cancel keeps the todo; Confirm deletes it.
    const mum = '.list li:has-text("给妈妈打电话")';
    await page.click(`${mum} button:has-text("Delete")`);
    expect(await page.textContent('dialog.confirm[open]')).toContain('Delete the todo “给妈妈打电话”?');
    await shot(page, 'todos-confirm-delete');
    await page.click('dialog.confirm button:has-text("Cancel")');
    expect(await page.locator('dialog.confirm').count()).toBe(0);
    expect(await page.locator(mum).count()).toBe(1);
    await page.click(`${mum} button:has-text("Delete")`);
    await confirm(page);
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
    // Ending the series asks first (zh here): Escape keeps it, Confirm ends it.
    await setLang(page, 'zh');
    await page.click(`${standup} button:has-text("结束重复")`);
    expect(await page.textContent('dialog.confirm[open]')).toContain('结束重复待办「Team standup」？');
    await page.keyboard.press('Escape');
    expect(await page.locator('dialog.confirm').count()).toBe(0);
    expect(await page.textContent(standup)).toContain('2030');
    await page.click(`${standup} button:has-text("结束重复")`);
    await confirm(page, '确认');
    await setLang(page, 'en');
    await expect.poll(() => page.locator(standup).count()).toBe(0);
    await page.selectOption('main select', 'true');
    await page.waitForSelector(`.list li.done:has-text("Team standup")`);
    await page.selectOption('main select', 'false');
    await page.click('.list li:has-text("吃药") button:has-text("Delete")');
    await confirm(page);
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
    // The error shows in the form that failed, in the page's language, quoting what was typed; the server's words are kept behind it.
    await page.waitForSelector(`${plumber} form .error:has-text("INVALID_INPUT")`);
    // The server's reason (details.reason: no-time) picks the sentence.
    expect(await page.textContent(`${plumber} form .error strong`)).toBe('No time found in “the blue room”. Try “4pm”, “Monday at 10am” or “every weekday at 9am”.');
    expect(await page.textContent(`${plumber} form .error details.server-words`)).toContain('No time or repeat found in "the blue room"');
    expect(await page.locator('.error button:has-text("Retry")').count()).toBe(0);
    // The same in Chinese: no English sentence in the Chinese page; the server's words wait in their disclosure.
    await setLang(page, 'zh');
    await page.fill(`${plumber} form input >> nth=1`, '随便什么时候吧');
    await page.click(`${plumber} form button[type=submit]`);
    await page.waitForSelector(`${plumber} form .error strong:has-text("随便什么时候吧")`);
    expect(await page.textContent(`${plumber} form .error strong`)).toBe('没有从“随便什么时候吧”中读出时间。可以写“下午四点”“周一上午十点”或“每个工作日早上九点”。');
    expect(await page.locator(`${plumber} form .error .server-words`).evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await page.locator(`${plumber} form .error .server-words summary`).textContent()).toBe('服务器原文（英文）');
    await page.click(`${plumber} form .error .server-words summary`);
    await shot(page, 'todos-move-error-zh');
    expect(await page.locator(`${plumber} form .error .server-words .error-message`).isVisible()).toBe(true);
    await setLang(page, 'en');
    expect(await page.textContent(plumber)).toContain('15:00');
    // Three days ahead, so "the night before" below is in the future whatever day the test runs (the server reads the real clock).
    await page.fill(`${plumber} form input >> nth=1`, 'in 3 days at 10am');
    await shot(page, 'todos-move');
    await page.click(`${plumber} form button[type=submit]`);
    await expect.poll(() => page.textContent(`${plumber} span.muted`)).toContain('10:00');
    await page.click(`${plumber} button:has-text("Move")`);
    await page.fill(`${plumber} form input >> nth=2`, 'whenever');
    await page.click(`${plumber} form button[type=submit]`);
    await page.waitForSelector(`${plumber} form .error strong:has-text("No reminder time found in “whenever”")`);
    expect(await page.textContent(`${plumber} form .error details.server-words`)).toContain('No reminder time found in "whenever"');
    await page.fill(`${plumber} form input >> nth=2`, 'the night before');
    await page.click(`${plumber} form button[type=submit]`);
    await expect.poll(() => page.textContent(`${plumber} span.small`)).toContain('20:00');
    await shot(page, 'todos-remind');
    await page.click(`${boss} button:has-text("Delete")`);
    await confirm(page);
    await page.click(`${plumber} button:has-text("Delete")`);
    await confirm(page);
    await expect.poll(() => page.locator('.list li').count()).toBe(0);
  });
  it('marks an open todo whose time has passed as overdue (en, zh); a future one and a completed one are not', async () => {
    const late = (await api(server.url, key, 'POST', `${user}/todos`, { content: 'Pay the 2020 tax bill', dueAt: '2020-01-01T01:00:00Z' })) as { id: string };
    const future = (await api(server.url, key, 'POST', `${user}/todos`, { content: '续签护照', dueAt: '2031-01-01T01:00:00Z' })) as { id: string };
    const paid = (await api(server.url, key, 'POST', `${user}/todos`, { content: '交上个月的水费', dueAt: '2020-02-01T01:00:00Z' })) as { id: string };
    await api(server.url, key, 'POST', `${user}/todos/${paid.id}/complete`);
    await page.goto(`${server.url}/#/todos`);
    await page.selectOption('main select', '');
    await page.waitForSelector('.list li.done:has-text("交上个月的水费")');
    expect(await page.locator('.list li.overdue').allTextContents()).toEqual([expect.stringContaining('Pay the 2020 tax bill')]);
    expect(await page.textContent('.list li.overdue .tag.overdue')).toBe('Overdue');
    expect(await page.locator('.list li:has-text("续签护照") .tag.overdue').count()).toBe(0);
    expect(await page.locator('.list li.done .tag.overdue').count()).toBe(0);
    // The words say it; the due time stands out in the danger colour as well.
    expect(await page.locator('.list li.overdue .due').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(185, 28, 28)');
    await shot(page, 'todos-overdue-en');
    await setLang(page, 'zh');
    expect(await page.textContent('.list li.overdue .tag.overdue')).toBe('已逾期');
    await shot(page, 'todos-overdue-zh');
    await setLang(page, 'en');
    await page.selectOption('main select', 'false');
    for (const { id } of [late, future, paid]) await api(server.url, key, 'DELETE', `${user}/todos/${id}`);
  });
});
