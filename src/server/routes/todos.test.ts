import { describe, expect, it } from 'vitest';
import { closesAfterEach } from '../../testing/closes-after-each.js';
import { fixedClock } from '../../testing/clock.js';
import { testApp } from '../test-app.js';

/** An app whose clock stands at `now` (2026-01-01T00:00Z by default), closed after the test. */
const make = closesAfterEach((now?: string) => testApp(now ? { engine: { clock: fixedClock(now) } } : {}), (t) => t.memory.close());

describe('POST /todos: a weekday read on the user’s calendar', () => {
  // 2026-11-28T01:28Z: Saturday in UTC, Friday 20:28 in New York, 17:28 in Los Angeles.
  it.each([
    ['America/New_York', 'call mom on Friday at 6pm', '2026-12-04T23:00:00.000Z'],
    ['America/New_York', '周五下午六点给妈妈打电话', '2026-12-04T23:00:00.000Z'],
    ['America/Los_Angeles', 'Friday at 4pm', '2026-12-05T00:00:00.000Z'],
    ['America/Los_Angeles', '周五下午四点', '2026-12-05T00:00:00.000Z'],
    ['Asia/Shanghai', 'call mom on Friday at 6pm', '2026-12-04T10:00:00.000Z'],
  ])('%s: "%s" said on a Friday evening is next Friday (%s), not overdue', async (zone, content, due) => {
    const t = make('2026-11-28T01:28:00Z');
    await t.memory.setSettings('u', { timeZone: zone });
    const r = await t.json('/v1/users/u/todos', { body: { content } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ dueAt: due, remindAt: new Date(Date.parse(due) - 3_600_000).toISOString() });
  });
});

describe('a repeat that ends before it starts is refused (repeat.until)', () => {
  it('create: 400 INVALID_INPUT naming repeat.until, nothing stored; an end on the first day or later is kept', async () => {
    const t = make();
    const refused = await t.json('/v1/users/u/todos', { body: { content: 'x daily', repeat: { every: 'day', until: '2020-01-01' } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'repeat.until' } });
    expect(refused.body.error!.message).toContain('repeat.until');
    // A first time given after the end: refused too (zh).
    const late = await t.json('/v1/users/u/todos', { body: { content: '每天吃药', dueAt: '2026-01-10T00:00:00Z', repeat: { every: 'day', until: '2026-01-05' } } });
    expect([late.status, late.body.error?.details?.field]).toEqual([400, 'repeat.until']);
    expect((await t.json('/v1/users/u/todos')).body.items).toEqual([]);
    expect((await t.json('/v1/users/u/memories')).body.items).toEqual([]);
    // The clock stands at 00:00 UTC: the first 09:00 is today's, and a series may end on its first day.
    const one = await t.json('/v1/users/u/todos', { body: { content: 'x daily', repeat: { every: 'day', until: '2026-01-01' } } });
    expect(one.status).toBe(201);
    expect(one.body).toMatchObject({ dueAt: '2026-01-01T09:00:00.000Z', repeat: { every: 'day', until: '2026-01-01' } });
  });

  it('the end is on the series’ wall clock: Shanghai’s first 08:00 is on 2 January (zh, en)', async () => {
    const t = make();
    await t.memory.setSettings('li', { timeZone: 'Asia/Shanghai' });
    // 2026-01-01T00:00Z is 08:00 in Shanghai: the next 08:00 is on 2 January there.
    const zh = await t.json('/v1/users/li/todos', { body: { content: '每天早上八点吃药', repeat: { every: 'day', until: '2026-01-01' } } });
    expect([zh.status, zh.body.error?.details?.field]).toEqual([400, 'repeat.until']);
    const en = await t.json('/v1/users/li/todos', { body: { content: 'take the pills at 8am', repeat: { every: 'day', until: '2026-01-02' } } });
    expect(en.status).toBe(201);
    expect(en.body).toMatchObject({ dueAt: '2026-01-02T00:00:00.000Z', repeat: { until: '2026-01-02' } });
  });

  it('PATCH: a new repeat ending before its first time, or a series moved past its last day, is 400 and changes nothing', async () => {
    const t = make();
    const made = await t.json('/v1/users/u/todos', { body: { content: 'water the plants', dueAt: '2026-01-02T09:00:00Z' } });
    const series = await t.json('/v1/users/u/todos', { body: { content: 'stretch', repeat: { every: 'day', until: '2026-01-05' } } });
    const patch = (id: unknown, body: unknown) => t.json(`/v1/users/u/todos/${String(id)}`, { method: 'PATCH', body });
    const before = (await t.json('/v1/users/u/todos')).body.items;
    const repeat = await patch(made.body.id, { repeat: { every: 'week', until: '2025-12-31' } });
    expect(repeat.status).toBe(400);
    expect(repeat.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'repeat.until' } });
    expect((await patch(series.body.id, { dueAt: '2026-01-08T09:00:00Z' })).body.error).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'dueAt' } });
    expect((await patch(series.body.id, { when: 'next Friday' })).body.error).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'when' } });
    expect((await t.json('/v1/users/u/todos')).body.items).toEqual(before);
    // Within the series, or with an end after the first time, it moves.
    expect((await patch(series.body.id, { dueAt: '2026-01-05T09:00:00Z' })).body).toMatchObject({ dueAt: '2026-01-05T09:00:00.000Z', repeat: { until: '2026-01-05' } });
    expect((await patch(made.body.id, { repeat: { every: 'week', until: '2026-01-31' } })).body).toMatchObject({ repeat: { every: 'week', until: '2026-01-31' } });
  });

});

describe('PATCH /todos/{id}: a refusal says which field and why (reason, text), for a caller to say it in its own language', () => {
  it('a time or reminder not read, a reminder after the time, a reminder with no time, a completed todo (zh, en)', async () => {
    const t = make();
    await t.memory.setSettings('u', { timeZone: 'Asia/Shanghai' });
    const dated = (await t.json('/v1/users/u/todos', { body: { content: '明天下午三点给老板打电话' } })).body;
    const undated = (await t.json('/v1/users/u/todos', { body: { content: 'Buy milk' } })).body;
    const patch = (id: unknown, body: unknown) => t.json(`/v1/users/u/todos/${String(id)}`, { method: 'PATCH', body });
    const refused = async (id: unknown, body: unknown) => {
      const r = await patch(id, body);
      expect(r.status).toBe(400);
      return r.body.error;
    };
    expect(await refused(dated.id, { when: '随便什么时候吧' })).toMatchObject({ code: 'INVALID_INPUT', message: 'No time or repeat found in "随便什么时候吧"', details: { field: 'when', reason: 'no-time', text: '随便什么时候吧' } });
    expect((await refused(undated.id, { when: 'whenever' }))?.details).toEqual({ field: 'when', reason: 'no-time', text: 'whenever' });
    expect((await refused(dated.id, { remind: '随便' }))?.details).toEqual({ field: 'remind', reason: 'no-time', text: '随便' });
    expect((await refused(dated.id, { remind: 'in a week' }))?.details).toEqual({ field: 'remind', reason: 'after-due', text: 'in a week' });
    expect((await refused(undated.id, { remind: '提前半小时' }))?.details).toEqual({ field: 'remind', reason: 'no-due-time', text: '提前半小时' });
    await t.json(`/v1/users/u/todos/${String(undated.id)}/complete`, { method: 'POST' });
    expect((await refused(undated.id, { content: 'Buy oat milk' }))?.details).toEqual({ field: 'id', reason: 'completed' });
  });
});

describe('POST /todos: the same words due another time', () => {
  it.each([['交房租'], ['Pay rent']])('"%s" due December 1, then January 1: two todos (201 each, other ids); January again: the January one', async (content) => {
    const t = make();
    const december = await t.json('/v1/users/u/todos', { body: { content, dueAt: '2026-12-01T09:00:00Z' } });
    const january = await t.json('/v1/users/u/todos', { body: { content, dueAt: '2027-01-01T09:00:00Z' } });
    expect([december.status, january.status]).toEqual([201, 201]);
    expect(january.body.id).not.toBe(december.body.id);
    expect(january.body.dueAt).toBe('2027-01-01T09:00:00.000Z');
    const again = await t.json('/v1/users/u/todos', { body: { content, dueAt: '2027-01-01T09:00:00Z' } });
    expect(again.body.id).toBe(january.body.id);
    expect((await t.json('/v1/users/u/todos')).body.items).toEqual([expect.objectContaining({ dueAt: '2026-12-01T09:00:00.000Z' }), expect.objectContaining({ dueAt: '2027-01-01T09:00:00.000Z' })]);
  });
});

describe('POST /todos: a yearly series on February 29', () => {
  // Said on 2026-11-28 (Shanghai): the next February 29 is in 2028; a common year's falls on February 28.
  it.each([['每年2月29日纪念日'], ['remind me every year on February 29 anniversary']])('"%s": first on 2027-02-28, done: 2028-02-29; done that day: 2029-02-28; never on the day it was said', async (content) => {
    const t = make('2026-11-28T02:00:00Z');
    await t.memory.setSettings('u', { timeZone: 'Asia/Shanghai' });
    const r = await t.json('/v1/users/u/todos', { body: { content } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ dueAt: '2027-02-28T01:00:00.000Z', repeat: { every: 'year', day: 29 } });
    const leap = await t.json(`/v1/users/u/todos/${String(r.body.id)}/complete`, { method: 'POST' });
    expect(leap.body).toMatchObject({ dueAt: '2028-02-29T01:00:00.000Z', repeat: { every: 'year', day: 29 } });
    t.memory.clock.set('2028-02-29T00:30:00Z');
    const common = await t.json(`/v1/users/u/todos/${String(r.body.id)}/complete`, { method: 'POST' });
    expect(common.body.dueAt).toBe('2029-02-28T01:00:00.000Z');
  });

  it.each([['每年5月3日纪念日'], ['every year on May 3 anniversary']])('"%s" keeps working: May 3 each year', async (content) => {
    const t = make('2026-11-28T02:00:00Z');
    await t.memory.setSettings('u', { timeZone: 'Asia/Shanghai' });
    const r = await t.json('/v1/users/u/todos', { body: { content } });
    expect(r.body).toMatchObject({ dueAt: '2027-05-03T01:00:00.000Z', repeat: { every: 'year', day: 3 } });
  });
});

describe('PATCH /memories/{id} {"kind": "preference"} on a todo’s memory', () => {
  it.each([['交房租'], ['Pay rent']])('"%s": the todo is withdrawn (not listed; not reminded: withdrawn-todos.test.ts); made a todo again, it is back', async (content) => {
    const t = make();
    const todo = await t.json('/v1/users/u/todos', { body: { content, dueAt: '2026-01-02T09:00:00Z' } });
    const memoryId = String(todo.body.memoryId);
    expect((await t.json(`/v1/users/u/memories/${memoryId}`, { method: 'PATCH', body: { kind: 'preference' } })).status).toBe(200);
    expect((await t.json('/v1/users/u/todos')).body.items).toEqual([]);
    await t.json(`/v1/users/u/memories/${memoryId}`, { method: 'PATCH', body: { kind: 'todo' } });
    expect((await t.json('/v1/users/u/todos')).body.items).toEqual([expect.objectContaining({ id: todo.body.id })]);
  });
});

describe('POST /todos: an hour no clock has', () => {
  it.each([['下午25点开会'], ['meeting at 25:00']])('"%s": a todo with no time, never one at 15:00', async (content) => {
    const t = make('2026-11-28T01:00:00Z');
    const r = await t.json('/v1/users/u/todos', { body: { content } });
    expect(r.status).toBe(201);
    expect(r.body.dueAt).toBeUndefined();
    expect(r.body.remindAt).toBeUndefined();
  });
});

describe('a reminder given in the past for a todo still ahead is refused (remindAt)', () => {
  it.each([['交房租'], ['Pay rent']])('"%s": create and change with remindAt 2020 and dueAt 2030: 400 naming remindAt, nothing stored or changed; remindAt ahead is kept', async (content) => {
    const t = make('2026-01-01T00:00:00Z');
    const refused = await t.json('/v1/users/u/todos', { body: { content, dueAt: '2030-01-01T09:00:00Z', remindAt: '2020-01-01T09:00:00Z' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'remindAt', reason: 'past' } });
    expect((await t.json('/v1/users/u/todos')).body.items).toEqual([]);
    expect((await t.json('/v1/users/u/memories')).body.items).toEqual([]);
    const made = await t.json('/v1/users/u/todos', { body: { content, dueAt: '2030-01-01T09:00:00Z', remindAt: '2029-12-31T09:00:00Z' } });
    expect([made.status, made.body.remindAt]).toEqual([201, '2029-12-31T09:00:00.000Z']);
    const moved = await t.json(`/v1/users/u/todos/${String(made.body.id)}`, { method: 'PATCH', body: { remindAt: '2020-01-01T09:00:00Z' } });
    expect([moved.status, moved.body.error?.details?.field]).toEqual([400, 'remindAt']);
    expect((await t.json('/v1/users/u/todos')).body.items).toEqual([expect.objectContaining({ remindAt: '2029-12-31T09:00:00.000Z' })]);
  });
});

describe('a reminder given a moment ago means now', () => {
  it.each([['给妈妈打电话'], ['Call mom']])('"%s": remindAt a second before the clock is kept', async (content) => {
    const t = make('2026-01-01T00:00:00Z');
    const r = await t.json('/v1/users/u/todos', { body: { content, dueAt: '2026-01-01T01:00:00Z', remindAt: '2025-12-31T23:59:59Z' } });
    expect([r.status, r.body.remindAt]).toEqual([201, '2025-12-31T23:59:59.000Z']);
  });
});
