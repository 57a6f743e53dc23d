import { zonedMinute } from '../domain/zoned-time.js';
import { EngramError } from '../errors.js';
import { callbackNotifier, type Reminder } from '../notify/notifier.js';
import type { testMemory } from './test-memory.js';

/** The todo suites' user's zone: the test clock's 2026-01-01T00:00Z is Thursday 08:00 there. */
export const TODO_USER_ZONE = 'Asia/Shanghai';

/** A time on that user's wall clock ("2026-01-02 15:00"). */
export const wallMinute = (d: Date | undefined): string | undefined => (d ? zonedMinute(d, TODO_USER_ZONE) : undefined);

/** The code of an Engram error; undefined for anything else. */
export const errorCode = (e: unknown): string | undefined => (EngramError.isInstance(e) ? e.code : undefined);

/**
 * User 'u' in TODO_USER_ZONE on an engine `open` gives (closed by the suite), with what was sent
 * to them: their todos, a message said and extracted (the clock a minute on after), and the
 * reminders delivered at a time.
 */
export async function todoUser(open: typeof testMemory, options: Parameters<typeof testMemory>[0] = {}) {
  const sent: Reminder[] = [];
  const memory = open({ notifier: callbackNotifier((r) => void sent.push(r)), ...options });
  await memory.setSettings('u', { timeZone: TODO_USER_ZONE });
  const todos = async () => memory.listTodos({ userId: 'u' });
  const todo = async () => (await todos())[0]!;
  const say = async (content: string) => {
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content }] });
    const report = await memory.extract('u', 's');
    memory.clock.advance(60_000);
    return report;
  };
  /** Moves the clock to `when` and delivers what is due. */
  const deliverAt = async (when: Date) => {
    memory.clock.advance(when.getTime() - memory.clock.now().getTime());
    return memory.deliverReminders();
  };
  return { memory, sent, todos, todo, say, deliverAt };
}
