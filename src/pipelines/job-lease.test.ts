import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sequentialIds } from '../testing/clock.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { testMemory } from '../testing/test-memory.js';
import { PROFILE_BUSY } from './update-profile.js';

let dir: string;
let engines: Array<ReturnType<typeof testMemory>> = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'engram-job-lease-'));
});
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
  rmSync(dir, { recursive: true, force: true });
});

const TEXT = {
  zh: { tired: '用户今天很累', name: '用户叫王芳，是一名医生', narrative: '王芳是一名医生。' },
  en: { tired: 'The user was tired today', name: 'The user is called Jane and works as a doctor', narrative: 'Jane is a doctor.' },
} as const;

/**
 * Two engines on one database (one SQLite file, or one PostgreSQL schema), each with its own
 * worker id: two server processes. The model holds the first call of `promptId` until a second
 * one arrives or `release` is called (when one of the two runs has returned).
 */
function twoProcesses(promptId: string, answer: () => unknown) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const calls: string[] = [];
  const model = scriptedModel(async (id) => {
    if (id !== promptId) throw new Error(`unexpected prompt ${id}`);
    calls.push(id);
    if (calls.length >= 2) release();
    await gate;
    return answer();
  });
  const file = path.join(dir, 'shared.db');
  const [a, b] = (['A', 'B'] as const).map((w) => testMemory({ path: file, model, workerId: `worker-${w}`, ids: sequentialIds(`id-${w}`) }));
  engines.push(a!, b!);
  return { a: a!, b: b!, calls, release };
}

describe('scheduled jobs across processes', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`two engines ticking at once run the daily lifecycle pass once: one memory review, one model call (${lang})`, async () => {
      const { a, b, calls, release } = twoProcesses('review-memory', () => ({ decision: 'delete', reason: lang === 'zh' ? '早已过去的暂时状态' : 'a temporary state, long past' }));
      const tired = await a.add({ userId: 'u', content: TEXT[lang].tired, importance: 0.16 });
      const ticks = [a.tick(), b.tick()];
      void Promise.race(ticks).then(release, release);
      await Promise.all(ticks);
      expect(calls).toEqual(['review-memory']);
      expect(await b.get('u', tired.id)).toMatchObject({ status: 'archived' });
      expect((await a.history('u', tired.id)).filter((e) => e.actor === 'review')).toHaveLength(1);
      // By hand the pass is not guarded: the user asked for it.
      const again = await b.add({ userId: 'u', content: `${TEXT[lang].tired}!`, importance: 0.16 });
      await b.runLifecycle();
      expect(calls).toHaveLength(2);
      expect(await a.get('u', again.id)).toMatchObject({ status: 'archived' });
    });

    it(`two engines updating one user's profile at once make one model call; the other skips, and the lease is released (${lang})`, async () => {
      const { a, b, calls, release } = twoProcesses('update-profile', () => ({ narrative: TEXT[lang].narrative, basicInfo: {}, changes: 'first version' }));
      await a.add({ userId: 'u', kind: 'identity', content: TEXT[lang].name, importance: 1 });
      const runs = [a.updateProfile('u'), b.updateProfile('u')];
      void Promise.race(runs).then(release, release);
      const reports = await Promise.all(runs);
      expect(reports.map((r) => r.status).sort()).toEqual(['unchanged', 'updated']);
      expect(reports.find((r) => r.status === 'unchanged')!.reason).toBe(PROFILE_BUSY);
      expect(calls).toEqual(['update-profile']);
      expect((await b.profileVersions('u')).map((p) => p.narrative)).toEqual([TEXT[lang].narrative]);
      // Released when done: the next update runs in either engine.
      expect((await b.updateProfile('u', { force: true })).status).toBe('updated');
      expect((await a.profileVersions('u')).map((p) => p.version).sort()).toEqual([1, 2]);
    });
  }
});
