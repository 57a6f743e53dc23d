import { describe, expect, it } from 'vitest';
import { EngramError } from '../../errors.js';
import { at, mem, todo, useStore, user, vec, type StoreFactory } from './fixtures.js';

/** TodosPort: todos, due reminders, deliveries recorded once, delivery failures. */
export function describeTodosContract(name: string, factory: StoreFactory): void {
  describe(`todos port: ${name}`, () => {
    const open = useStore(factory);

    it('inserts, lists with filters, updates and deletes (zh, en)', async () => {
      const { store } = open();
      const a = todo('t1', 'u', '周五前交报告', { dueAt: at(60), remindAt: at(50), memoryId: 'm1', sourceSessionId: 's' });
      const b = todo('t2', 'u', 'Call the dentist', { dueAt: at(10) });
      const c = todo('t3', 'u', 'Buy 猫粮');
      for (const t of [a, b, c]) await store.insertTodo(t);
      expect((await store.listTodos({ userId: 'u' })).map((t) => t.id)).toEqual(['t2', 't1', 't3']);
      expect(await store.listTodos({ userId: 'u', dueBefore: at(30) })).toEqual([b]);
      expect((await store.listTodos({ userId: 'u', limit: 1 })).map((t) => t.id)).toEqual(['t2']);
      const done = await store.updateTodo('u', 't2', { completed: true, completedAt: at(11) });
      expect(done).toMatchObject({ id: 't2', completed: true, completedAt: at(11), content: 'Call the dentist' });
      expect((await store.listTodos({ userId: 'u', completed: false })).map((t) => t.id)).toEqual(['t1', 't3']);
      expect((await store.listTodos({ userId: 'u', completed: true }))[0]).toEqual(done);
      await store.updateTodo('u', 't1', { content: '周四前交报告', dueAt: at(40) });
      expect((await store.listTodos({ userId: 'u', completed: false }))[0]).toMatchObject({ content: '周四前交报告', dueAt: at(40), memoryId: 'm1', sourceSessionId: 's' });
      await store.deleteTodo('u', 't3');
      expect((await store.listTodos({ userId: 'u' })).map((t) => t.id).sort()).toEqual(['t1', 't2']);
      await expect(store.updateTodo('u', 't3', { completed: true })).rejects.toSatisfy((e) => e instanceof EngramError && e.code === 'NOT_FOUND');
    });

    it('due reminders: delivered once per delivery id, retried after a failure at its time', async () => {
      const { store, traits } = open();
      await store.insertTodo(todo('t1', 'u', '提醒我给妈妈打电话', { remindAt: at(10) }));
      await store.insertTodo(todo('t2', 'v', 'Renew the passport', { remindAt: at(20) }));
      await store.insertTodo(todo('t3', 'v', 'done already', { remindAt: at(5), completed: true }));
      expect(await store.dueReminders(at(9), 10)).toEqual([]);
      if (traits?.claimsReminders) {
        // A claim keeps what one process took out of the others' hands until it delivers or fails.
        expect((await store.dueReminders(at(30), 1)).map((t) => t.id)).toEqual(['t1']);
        expect((await store.dueReminders(at(30), 10)).map((t) => t.id)).toEqual(['t2']);
        expect(await store.dueReminders(at(30), 10)).toEqual([]);
        await store.recordDeliveryFailure('v', 't2', 'webhook 502', at(40));
        expect(await store.dueReminders(at(34), 10)).toEqual([]); // t1 claimed (five minutes), t2 waits for its retry
        expect((await store.listTodos({ userId: 'v', completed: false }))[0]).toMatchObject({ deliveryAttempts: 1, lastDeliveryError: 'webhook 502' });
        expect((await store.dueReminders(at(40), 10)).map((t) => t.id)).toEqual(['t1', 't2']); // t1's claim lapsed undelivered: due again
        expect(await store.recordDelivery('u', 't1', 'd1', at(31))).toBe(true);
        expect(await store.recordDelivery('u', 't1', 'd1', at(32))).toBe(false);
        expect((await store.listTodos({ userId: 'u' }))[0]!.reminded).toBe(true);
        expect(await store.deliveriesOf('u', 't1')).toEqual([{ id: 'd1', at: at(31) }]);
        return;
      }
      expect((await store.dueReminders(at(30), 10)).map((t) => t.id)).toEqual(['t1', 't2']);
      expect((await store.dueReminders(at(30), 1)).map((t) => t.id)).toEqual(['t1']);

      await store.recordDeliveryFailure('v', 't2', 'webhook 502', at(40));
      expect((await store.dueReminders(at(30), 10)).map((t) => t.id)).toEqual(['t1']);
      expect((await store.listTodos({ userId: 'v', completed: false }))[0]).toMatchObject({ deliveryAttempts: 1, lastDeliveryError: 'webhook 502' });
      expect((await store.dueReminders(at(40), 10)).map((t) => t.id)).toEqual(['t1', 't2']);

      expect(await store.recordDelivery('u', 't1', 'd1', at(31))).toBe(true);
      expect(await store.recordDelivery('u', 't1', 'd1', at(32))).toBe(false);
      expect((await store.listTodos({ userId: 'u' }))[0]!.reminded).toBe(true);
      expect((await store.dueReminders(at(40), 10)).map((t) => t.id)).toEqual(['t2']);
      expect(await store.deliveriesOf('u', 't1')).toEqual([{ id: 'd1', at: at(31) }]);
      expect(await store.deliveriesOf('v', 't2')).toEqual([]);
    });

    it('keeps a repeat, and a delivery with the next occurrence moves the todo on, not reminded, failures cleared (zh, en)', async () => {
      const { store } = open();
      const daily = { every: 'day' as const, interval: 1, timeZone: 'Asia/Shanghai' };
      const weekly = { every: 'week' as const, interval: 1, weekdays: [1, 4], timeZone: 'America/New_York' };
      await store.insertTodo(todo('r1', 'u', '吃药', { dueAt: at(60), remindAt: at(0), repeat: daily }));
      await store.insertTodo(todo('r2', 'u', 'Go to the gym', { dueAt: at(120), remindAt: at(60), repeat: weekly }));
      await store.insertTodo(todo('r3', 'u', 'One-off'));
      const listed = await store.listTodos({ userId: 'u' });
      expect(listed.map((t) => [t.id, t.repeat])).toEqual([['r1', daily], ['r2', weekly], ['r3', undefined]]);
      await store.recordDeliveryFailure('u', 'r1', 'webhook 502', at(1));
      expect(await store.recordDelivery('u', 'r1', 'r1@0', at(2), { next: { dueAt: at(60 + 1440), remindAt: at(1440) } })).toBe(true);
      const moved = (await store.listTodos({ userId: 'u' })).find((t) => t.id === 'r1')!;
      expect(moved).toMatchObject({ dueAt: at(60 + 1440), remindAt: at(1440), reminded: false, completed: false, deliveryAttempts: 0, repeat: daily });
      expect(moved.lastDeliveryError).toBeUndefined();
      expect((await store.dueReminders(at(100), 10)).map((t) => t.id)).toEqual(['r2']);
      expect((await store.dueReminders(at(1440), 10)).map((t) => t.id)).toEqual(['r2', 'r1']);
      // A repeat ended by hand (an update that clears it) leaves a one-off.
      expect((await store.updateTodo('u', 'r2', { repeat: undefined })).repeat).toBeUndefined();
      expect((await store.listTodos({ userId: 'u' })).find((t) => t.id === 'r2')!.repeat).toBeUndefined();
    });
    it('a new reminder time re-arms the reminder; a delivery for a time the todo has moved from does not settle it (zh, en)', async () => {
      const { store } = open();
      await store.insertTodo(todo('t-zh', 'u', '开会', { dueAt: at(60), remindAt: at(10) }));
      await store.insertTodo(todo('t-en', 'u', 'Call the dentist', { dueAt: at(60), remindAt: at(10) }));
      // Reminded, then moved: due again at its new time, its failures and backoff gone.
      expect(await store.recordDelivery('u', 't-zh', 't-zh@10', at(10), { of: at(10) })).toBe(true);
      await store.recordDeliveryFailure('u', 't-en', 'webhook 502', at(500));
      expect(await store.dueReminders(at(100), 10)).toEqual([]);
      const zh = await store.updateTodo('u', 't-zh', { dueAt: at(200), remindAt: at(150) });
      const en = await store.updateTodo('u', 't-en', { dueAt: at(200), remindAt: at(150) });
      expect(zh).toMatchObject({ reminded: false, remindAt: at(150) });
      expect(en).toMatchObject({ reminded: false, deliveryAttempts: 0 });
      expect(en.lastDeliveryError).toBeUndefined();
      for (const t of await store.listTodos({ userId: 'u' })) expect(t).toEqual(t.id === 't-zh' ? zh : en);
      expect((await store.dueReminders(at(150), 10)).map((t) => t.id).sort()).toEqual(['t-en', 't-zh']);
      // Changes that keep the reminder time keep its state.
      await store.updateTodo('u', 't-en', { reminded: true });
      expect((await store.updateTodo('u', 't-en', { content: 'Call Dr. Lee', remindAt: at(150) })).reminded).toBe(true);
      // The old reminder's delivery recorded after the move: recorded, the todo still due at its new time.
      expect(await store.recordDelivery('u', 't-zh', 't-zh@10-late', at(151), { of: at(10) })).toBe(true);
      expect((await store.listTodos({ userId: 'u' })).find((t) => t.id === 't-zh')).toMatchObject({ reminded: false, remindAt: at(150) });
      expect(await store.recordDelivery('u', 't-zh', 't-zh@150', at(152), { of: at(150) })).toBe(true);
      expect((await store.listTodos({ userId: 'u' })).find((t) => t.id === 't-zh')!.reminded).toBe(true);
    });

    it('a todo whose memory is deleted is withdrawn: not listed live, never due; restored, it is (zh, en)', async () => {
      const { store } = open();
      await store.insertMemory(mem('m-zh', 'u', '用户明天下午三点开会', { kind: 'todo' }), vec(1), user);
      await store.insertMemory(mem('m-en', 'u', 'The user sees the dentist on Friday', { kind: 'todo' }), vec(0, 1), user);
      await store.insertTodo(todo('t-zh', 'u', '开会', { memoryId: 'm-zh', remindAt: at(10) }));
      await store.insertTodo(todo('t-en', 'u', 'See the dentist', { memoryId: 'm-en', remindAt: at(20) }));
      await store.insertTodo(todo('t-none', 'u', 'No memory', { remindAt: at(30) }));
      await store.updateMemory('u', 'm-zh', { status: 'deleted', updatedAt: at(1) }, undefined, user);
      expect((await store.listTodos({ userId: 'u', live: true })).map((t) => t.id)).toEqual(['t-en', 't-none']);
      expect((await store.listTodos({ userId: 'u' })).map((t) => t.id).sort()).toEqual(['t-en', 't-none', 't-zh']);
      expect((await store.dueReminders(at(40), 10)).map((t) => t.id)).toEqual(['t-en', 't-none']);
      await store.updateMemory('u', 'm-zh', { status: 'active', updatedAt: at(50) }, undefined, user);
      // An archived memory (a faded one-off) keeps its reminder: only deletion withdraws it.
      await store.updateMemory('u', 'm-en', { status: 'archived', updatedAt: at(50) }, undefined, user);
      expect((await store.listTodos({ userId: 'u', live: true })).map((t) => t.id).sort()).toEqual(['t-en', 't-none', 't-zh']);
    });

    it('a todo whose memory is made another kind is withdrawn: not listed live, never due; made a todo again, it is (zh, en)', async () => {
      const { store } = open();
      await store.insertMemory(mem('m-zh', 'u', '交房租', { kind: 'todo' }), vec(1), user);
      await store.insertMemory(mem('m-en', 'u', 'Pay rent', { kind: 'todo' }), vec(0, 1), user);
      await store.insertTodo(todo('t-zh', 'u', '交房租', { memoryId: 'm-zh', remindAt: at(10) }));
      await store.insertTodo(todo('t-en', 'u', 'Pay rent', { memoryId: 'm-en', remindAt: at(20) }));
      await store.updateMemory('u', 'm-zh', { kind: 'preference', updatedAt: at(1) }, undefined, user);
      await store.updateMemory('u', 'm-en', { kind: 'fact', updatedAt: at(1) }, undefined, user);
      expect(await store.listTodos({ userId: 'u', live: true })).toEqual([]);
      expect(await store.dueReminders(at(40), 10)).toEqual([]);
      await store.updateMemory('u', 'm-en', { kind: 'todo', updatedAt: at(50) }, undefined, user);
      expect((await store.listTodos({ userId: 'u', live: true })).map((t) => t.id)).toEqual(['t-en']);
      expect((await store.dueReminders(at(60), 10)).map((t) => t.id)).toEqual(['t-en']);
    });
  });
}
