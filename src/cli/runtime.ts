import type { Command } from 'commander';
import { InvalidInputError } from '../errors.js';
import type { MemoryEngine } from '../memory.js';
import { openEngine, resolveEngineSettings, type EngineSettings } from './config.js';
import { ioLogger, type CliIo } from './io.js';

/** Options every command accepts (declared once on the program). */
export interface GlobalOptions {
  user: string;
  db?: string;
  embedder?: string;
  json: boolean;
}

export interface CommandContext {
  io: CliIo;
  json: boolean;
  userId: string;
  settings: EngineSettings;
  engine: MemoryEngine;
}

export function globalsOf(command: Command): GlobalOptions {
  const o = command.optsWithGlobals<GlobalOptions>();
  const user = o.user.trim();
  if (user === '') throw new InvalidInputError('--user must not be empty');
  return { ...o, user, json: o.json === true };
}

/** Opens the engine for one command, and always closes it. */
export async function withEngine(io: CliIo, command: Command, fn: (ctx: CommandContext) => Promise<void>): Promise<void> {
  const g = globalsOf(command);
  const settings = resolveEngineSettings({ db: g.db, embedder: g.embedder, env: io.env });
  const engine = openEngine({ settings, logger: ioLogger(io) });
  try {
    await fn({ io, json: g.json, userId: g.user, settings, engine });
  } finally {
    await engine.close();
  }
}
