import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngramError } from '../errors.js';
import { createEmbedderFromSettings, openEngine, resolveEngineSettings } from './config.js';

describe('resolveEngineSettings', () => {
  it('defaults to ./engram.db and the bundled embedder', () => {
    expect(resolveEngineSettings({ env: {} })).toEqual({ dbPath: path.resolve('engram.db'), embedder: { type: 'bundled' } });
  });

  it('lets flags win over the environment', () => {
    const env = { ENGRAM_DB: '/tmp/a.db', ENGRAM_EMBEDDER: 'bundled' };
    expect(resolveEngineSettings({ env })).toMatchObject({ dbPath: '/tmp/a.db', embedder: { type: 'bundled' } });
    expect(resolveEngineSettings({ env, db: ':memory:', embedder: 'hash' })).toEqual({ dbPath: ':memory:', embedder: { type: 'hash' } });
  });

  it('reads the openai-compatible settings from the environment, model inline or not', () => {
    const env = { ENGRAM_EMBED_BASE_URL: 'http://127.0.0.1:11434/v1', ENGRAM_EMBED_MODEL: 'nomic-embed-text', ENGRAM_EMBED_API_KEY: 'k', ENGRAM_EMBED_DIMENSIONS: '768' };
    expect(resolveEngineSettings({ env, embedder: 'openai-compatible' }).embedder).toEqual({
      type: 'openai-compatible',
      baseURL: 'http://127.0.0.1:11434/v1',
      apiKey: 'k',
      model: 'nomic-embed-text',
      dimensions: 768,
    });
    const inline = resolveEngineSettings({ env, embedder: 'openai-compatible:text-embedding-v4' }).embedder;
    expect(inline).toMatchObject({ model: 'text-embedding-v4' });
    const embedder = createEmbedderFromSettings(inline);
    expect(embedder.id).toBe('openai-compatible:text-embedding-v4');
  });

  it('builds the LLM from ENGRAM_LLM_*, and none without them', () => {
    const env = { ENGRAM_LLM_BASE_URL: 'http://127.0.0.1:11434/v1', ENGRAM_LLM_MODEL: 'qwen3:8b' };
    expect(resolveEngineSettings({ env }).model?.id).toBe('openai-compatible:qwen3:8b');
    expect(resolveEngineSettings({ env: {} }).model).toBeUndefined();
    const incomplete = () => resolveEngineSettings({ env: { ENGRAM_LLM_API_KEY: 'k' } });
    expect(incomplete).toThrow(/Incomplete model configuration: set ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL/);
  });

  it.each([
    [{ embedder: 'word2vec' }, /Unknown embedder "word2vec"; expected one of bundled, hash, openai-compatible/],
    [{ embedder: 'openai-compatible' }, /needs ENGRAM_EMBED_BASE_URL/],
    [{ embedder: 'openai-compatible', env: { ENGRAM_EMBED_BASE_URL: 'http://x' } }, /needs a model/],
    [{ embedder: 'hash', env: { ENGRAM_EMBED_DIMENSIONS: 'many' } }, /ENGRAM_EMBED_DIMENSIONS must be a positive integer/],
  ])('refuses %j with CONFIG_INVALID', (options, message) => {
    const run = () => resolveEngineSettings({ env: {}, ...options });
    expect(run).toThrow(message);
    try {
      run();
    } catch (error) {
      expect(EngramError.hasCode(error, 'CONFIG_INVALID')).toBe(true);
    }
  });
});

describe('openEngine', () => {
  it('builds a working engine from settings', async () => {
    const engine = openEngine({ settings: { dbPath: ':memory:', embedder: { type: 'hash' } } });
    const m = await engine.add({ userId: 'li-ming', content: '用户住在上海' });
    expect((await engine.recall({ userId: 'li-ming', query: '上海' }))[0]!.memory.id).toBe(m.id);
    await engine.close();
  });

  it('turns an unopenable path into STORE_FAILED', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'engram-config-'));
    const file = path.join(dir, 'file');
    writeFileSync(file, '');
    try {
      // A parent that is a file, not a directory.
      expect(() => openEngine({ settings: { dbPath: path.join(file, 'x.db'), embedder: { type: 'hash' } } })).toThrow(/^Could not open the database .*x\.db: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
