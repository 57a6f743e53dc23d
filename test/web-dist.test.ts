import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from 'vite';

const root = join(import.meta.dirname, '..', 'web');
const out = mkdtempSync(join(tmpdir(), 'engram-web-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const files = (dir: string): Record<string, string> => {
  const all: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      all[path.slice(dir.length + 1)] = readFileSync(path, 'utf8');
    }
  }
  return all;
};

describe('web/dist', () => {
  it('is what `npm run build:web` makes from web/src (rebuild and commit it after changing the page)', async () => {
    // vitest runs with NODE_ENV=test; the committed page is a production build.
    const env = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ configFile: join(root, 'vite.config.ts'), mode: 'production', logLevel: 'silent', build: { outDir: out, emptyOutDir: true } });
    } finally {
      process.env.NODE_ENV = env;
    }
    const fresh = files(out);
    const committed = files(join(root, 'dist'));
    expect(Object.keys(committed).sort()).toEqual(Object.keys(fresh).sort());
    for (const [name, text] of Object.entries(fresh)) expect(committed[name], name).toBe(text);
  }, 120_000);
});
