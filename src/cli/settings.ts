import type { Command } from 'commander';
import { ExtractionSettings, type SettingsPatch } from '../domain/settings.js';
import { InvalidInputError } from '../errors.js';
import { fields } from './format.js';
import { emit, type CliIo } from './io.js';
import { withEngine } from './runtime.js';

interface SettingsOptions {
  global?: boolean;
}

const KEYS = Object.keys(ExtractionSettings.shape) as Array<keyof ExtractionSettings>;

function key(name: string): keyof ExtractionSettings {
  const found = KEYS.find((k) => k.toLowerCase() === name.trim().toLowerCase());
  if (!found) throw new InvalidInputError(`settings: unknown setting "${name}"; expected one of ${KEYS.join(', ')}`);
  return found;
}

/** A value as typed on the command line, read as its setting's type (zod validates it afterwards). */
function value(name: keyof ExtractionSettings, raw: string): unknown {
  const sample = ExtractionSettings.parse({})[name];
  if (typeof sample === 'number') {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n)) throw new InvalidInputError(`settings: ${name} must be a number, got "${raw}"`);
    return n;
  }
  if (typeof sample === 'boolean') {
    if (!['true', 'false'].includes(raw.trim().toLowerCase())) throw new InvalidInputError(`settings: ${name} must be true or false, got "${raw}"`);
    return raw.trim().toLowerCase() === 'true';
  }
  return raw;
}

/** `engram settings [get [key]] | set key=value…`: a user's settings (or the global defaults with --global). */
export function registerSettings(program: Command, io: CliIo): void {
  const settings = program
    .command('settings')
    .description('show or change settings: engram settings get [key] | set key=value … (--global: defaults for everyone)')
    .option('-g, --global', 'the global defaults instead of --user');
  const show = (command: Command, name?: string) =>
    withEngine(io, command, async ({ engine, userId, json }) => {
      const all = await engine.getSettings(command.optsWithGlobals<SettingsOptions>().global === true ? '*' : userId);
      if (name !== undefined) {
        const k = key(name);
        emit(io, json, { [k]: all[k] }, () => String(all[k]));
        return;
      }
      emit(io, json, all, () => fields(KEYS.map((k) => [k, String(all[k])])));
    });
  settings.action((_options: SettingsOptions, command: Command) => show(command));
  settings
    .command('get')
    .description('print every setting, or one')
    .argument('[key]', 'one setting')
    .action((name: string | undefined, _options: unknown, command: Command) => show(command, name));
  settings
    .command('set')
    .description('change settings: engram settings set timeZone=Asia/Shanghai silentMinutes=5')
    .argument('<pairs...>', 'key=value pairs')
    .action((pairs: string[], _options: unknown, command: Command) =>
      withEngine(io, command, async ({ engine, userId, json }) => {
        const patch: Record<string, unknown> = {};
        for (const pair of pairs) {
          const at = pair.indexOf('=');
          if (at <= 0) throw new InvalidInputError(`settings set: expected key=value, got "${pair}"`);
          const k = key(pair.slice(0, at));
          patch[k] = value(k, pair.slice(at + 1));
        }
        const global = command.optsWithGlobals<SettingsOptions>().global === true;
        const result = await engine.setSettings(global ? '*' : userId, patch as SettingsPatch);
        emit(io, json, result, () => `${global ? 'Global defaults' : `Settings of ${userId}`} updated:\n${fields(Object.keys(patch).map((k) => [k, String(result[k as keyof ExtractionSettings])]))}`);
      }),
    );
}
