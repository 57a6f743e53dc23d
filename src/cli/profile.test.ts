import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Profile } from '../domain/profile.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

describe('engram profile', () => {
  it('says there is none yet, then shows a Chinese profile with basic info and version', async () => {
    const none = await h.cli(['--user', 'li-ming', 'profile']);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/^No profile for li-ming yet\./);
    expect((await h.cli(['--user', 'li-ming', '--json', 'profile'])).json()).toEqual({ profile: null, versions: 0 });

    await h.remember('li-ming', '我叫李明，我住在北京');
    const updated = await h.cli(['--user', 'li-ming', 'profile', '--update']);
    expect(updated.stdout).toMatch(/^Profile update: updated/);
    expect(updated.stdout).toMatch(/version\s+1 \(1 kept\)/);
    expect(updated.stdout).toContain('用户叫李明');
    expect(updated.stdout).toMatch(/name\s+李明/);
    const shown = (await h.cli(['--user', 'li-ming', '--json', 'profile'])).json<{ profile: Profile; versions: number }>();
    expect(shown.profile).toMatchObject({ userId: 'li-ming', version: 1, basicInfo: { name: '李明', location: '北京' } });
  });

  it('writes an English profile for alice that li-ming does not see', async () => {
    await h.remember('alice', "My name is Alice. I'm a data scientist.");
    const r = (await h.cli(['--user', 'alice', '--json', 'profile', '--update'])).json<{ profile: Profile; update: { status: string } }>();
    expect(r.update.status).toBe('updated');
    expect(r.profile.narrative).toContain("The user's name is Alice");
    expect(r.profile.basicInfo).toMatchObject({ name: 'Alice' });
    expect((await h.cli(['--user', 'li-ming', '--json', 'profile'])).json()).toEqual({ profile: null, versions: 0 });
  });
});
