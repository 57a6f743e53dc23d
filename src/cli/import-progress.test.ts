import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bufferIo } from './io.js';
import { run } from './run.js';
import { testMemory } from '../testing/test-memory.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

/** Exports a user with these memories to a file, for importing into a fresh database. */
async function exportOf(user: string, texts: string[]): Promise<string> {
  const memory = testMemory();
  for (const content of texts) await memory.add({ userId: user, content });
  const file = path.join(h.dir, `${user}.json`);
  writeFileSync(file, JSON.stringify(await memory.exportUser(user)));
  await memory.close();
  return file;
}

async function importWith(file: string, db: string, terminal: boolean, extra: string[] = []) {
  let drawn = '';
  const io = { ...bufferIo({ ENGRAM_DB: db, ENGRAM_EMBEDDER: 'hash' }), progress: { isTTY: terminal, write: (t: string) => (drawn += t) } };
  const code = await run(['import', file, ...extra], io);
  return { code, drawn, out: io.out(), err: io.err() };
}

describe('engram import draws a progress bar on a terminal only (issue 12 item 11)', () => {
  it.each([
    ['zh', '李明', Array.from({ length: 70 }, (_, i) => `用户记得第${i}件事：喜欢第${i}种茶`)],
    ['en', 'alice', Array.from({ length: 70 }, (_, i) => `The user remembers thing number ${i}: tea kind ${i}`)],
  ])('%s: a bar up to 100 percent on a terminal; nothing in a pipe or with --json', async (_, user, texts) => {
    const file = await exportOf(user, texts);
    const tty = await importWith(file, path.join(h.dir, 'a.db'), true);
    expect(tty.code).toBe(0);
    const frames = tty.drawn.split('\r').filter(Boolean);
    expect(frames.length).toBeGreaterThan(1);
    expect(frames[0]).toMatch(/^import \[[#-]+\] \d+% \(64\/71\)$/u);
    expect(tty.drawn.endsWith('] 100% (71/71)\n')).toBe(true);
    expect(tty.out).toBe(`Imported 70 memories and 0 messages for ${user}\n`);

    const pipe = await importWith(file, path.join(h.dir, 'b.db'), false);
    expect(pipe).toMatchObject({ code: 0, drawn: '' });
    const json = await importWith(file, path.join(h.dir, 'c.db'), true, ['--json']);
    expect(json).toMatchObject({ code: 0, drawn: '' });
    expect(JSON.parse(json.out)).toMatchObject({ userId: user, memories: 70 });
  });
});
