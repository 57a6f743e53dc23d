/**
 * Loads LoCoMo (snap-research/LoCoMo, data/locomo10.json; CC BY-NC 4.0) from outside the
 * repository and turns it into what the recall protocol needs: turns as raw messages and
 * questions with their evidence turn ids. See ../shared/data/locomo/README.md.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const CATEGORY_NAMES: Readonly<Record<number, string>> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

export interface LocomoTurn {
  /** dia_id, e.g. "D3:7"; used as the message id. */
  id: string;
  sessionId: string;
  speaker: string;
  /** `<speaker> said, "<text>"` plus ` and shared <blip_caption>` when an image was shared. */
  content: string;
  createdAt: Date;
}

export interface LocomoQuestion {
  question: string;
  category: number;
  /** Evidence dia_ids that name an existing turn (deduplicated). */
  evidence: string[];
}

export interface LocomoConversation {
  index: number;
  sampleId: string;
  speakers: [string, string];
  turns: LocomoTurn[];
  /** Only questions with at least one existing evidence turn. */
  questions: LocomoQuestion[];
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
interface RawConversation {
  sample_id: string;
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string };
  qa: Array<{ question: string; category: number; evidence?: string[] }>;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Parses LoCoMo's "1:56 pm on 8 May, 2023" (taken as UTC). */
export function parseSessionDate(text: string): Date {
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(text.trim());
  if (!m) throw new Error(`Unrecognised LoCoMo session date: ${text}`);
  const [, hh, mm, ampm, day, monthName, year] = m;
  const month = MONTHS.indexOf(monthName!.toLowerCase());
  if (month < 0) throw new Error(`Unrecognised month in LoCoMo session date: ${text}`);
  const hour = (Number(hh) % 12) + (ampm!.toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(year), month, Number(day), hour, Number(mm)));
}

/** Where the dataset is: LOCOMO_PATH, else ../shared/data/locomo/locomo10.json beside the repo. */
export function locomoPath(): string {
  return process.env.LOCOMO_PATH ?? resolve(import.meta.dirname, '..', '..', 'shared', 'data', 'locomo', 'locomo10.json');
}

export class LocomoMissingError extends Error {
  override readonly name = 'LocomoMissingError';
  constructor(readonly path: string) {
    super(
      [
        `LoCoMo not found at ${path}.`,
        'Get locomo10.json from https://github.com/snap-research/LoCoMo (path data/locomo10.json, licence CC BY-NC 4.0)',
        'and point LOCOMO_PATH at it, e.g. LOCOMO_PATH=/data/locomo10.json npm run bench -- --only locomo.',
        'Do not copy it into this repository.',
      ].join('\n'),
    );
  }
}

export function loadLocomo(path = locomoPath()): LocomoConversation[] {
  if (!existsSync(path)) throw new LocomoMissingError(path);
  const raw = JSON.parse(readFileSync(path, 'utf8')) as RawConversation[];
  return raw.map((c, index) => {
    const conv = c.conversation;
    const turns: LocomoTurn[] = [];
    const sessionNumbers = Object.keys(conv)
      .map((k) => /^session_(\d+)$/.exec(k)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    for (const n of sessionNumbers) {
      const list = conv[`session_${n}`];
      const date = conv[`session_${n}_date_time`];
      // Stray date keys with no session behind them are skipped by starting from the sessions.
      if (!Array.isArray(list) || typeof date !== 'string') continue;
      const start = parseSessionDate(date).getTime();
      (list as RawTurn[]).forEach((t, i) => {
        const caption = t.blip_caption ? ` and shared ${t.blip_caption}` : '';
        turns.push({
          id: t.dia_id,
          sessionId: `session_${n}`,
          speaker: t.speaker,
          content: `${t.speaker} said, "${t.text}"${caption}`,
          // One second apart, so a session's turns keep their order by time too.
          createdAt: new Date(start + i * 1000),
        });
      });
    }
    const known = new Set(turns.map((t) => t.id));
    // Evidence strings are sometimes lists in one string ("D8:6; D9:17", "D9:1 D4:4"): split them,
    // and ignore ids that name no turn ("D", "D:11:26", "D10:19" where no such turn exists).
    const questions = c.qa.flatMap((q) => {
      const evidence = [
        ...new Set((q.evidence ?? []).flatMap((e) => e.split(/[;,\s]+/)).map((e) => e.trim()).filter((e) => known.has(e))),
      ];
      return evidence.length > 0 ? [{ question: q.question, category: q.category, evidence }] : [];
    });
    return { index, sampleId: c.sample_id, speakers: [conv.speaker_a, conv.speaker_b], turns, questions };
  });
}
