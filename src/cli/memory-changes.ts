import type { Memory, MemoryKind } from '../domain/memory.js';
import type { MemoryEngine } from '../memory.js';
import type { ExtractReport } from '../pipelines/extract-session.js';

/** What one extraction did to a user's memories, read by comparing them before and after. */
export interface MemoryChange {
  op: 'add' | 'update' | 'delete' | 'reinforce';
  id: string;
  kind: MemoryKind;
  content: string;
  /** The content before an update. */
  before?: string;
  importance: number;
}

const SIGN: Record<MemoryChange['op'], string> = { add: '+', update: '~', delete: '-', reinforce: '^' };

const everything = (engine: MemoryEngine, userId: string): Promise<Memory[]> => engine.list({ userId, statuses: ['active', 'archived', 'deleted'] });

export function diffMemories(before: readonly Memory[], after: readonly Memory[]): MemoryChange[] {
  const old = new Map(before.map((m) => [m.id, m]));
  const changes: MemoryChange[] = [];
  // Newest first from the store; reversed so one batch's memories read in the order they were said.
  for (const m of [...after].reverse().sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
    const was = old.get(m.id);
    const base = { id: m.id, kind: m.kind, content: m.content, importance: m.importance };
    // A memory born archived is the kept old version of an update (lifecycle/supersede.ts), not news.
    if (!was) {
      if (m.status !== 'archived') changes.push({ op: 'add', ...base });
    }
    else if (was.status !== 'deleted' && m.status === 'deleted') changes.push({ op: 'delete', ...base });
    else if (was.content !== m.content || was.kind !== m.kind) changes.push({ op: 'update', ...base, before: was.content });
    else if (was.updatedAt.getTime() !== m.updatedAt.getTime() || was.importance !== m.importance) changes.push({ op: 'reinforce', ...base });
  }
  return changes;
}

/**
 * `engine.extract` plus the memories it touched. The report only counts operations; the CLI
 * shows which memories they were, so the user list is read before and after (cheap at CLI scale).
 */
export async function extractWithChanges(engine: MemoryEngine, userId: string, sessionId: string): Promise<{ report: ExtractReport; changes: MemoryChange[] }> {
  const before = await everything(engine, userId);
  const report = await engine.extract(userId, sessionId);
  const changes = report.status === 'applied' ? diffMemories(before, await everything(engine, userId)) : [];
  return { report, changes };
}

/** "+ identity   用户叫李明", "~ identity   用户住在北京 → 用户住在上海", one line per change. */
export function renderChanges(changes: readonly MemoryChange[]): string {
  return changes.map((c) => `${SIGN[c.op]} ${c.kind.padEnd(10)} ${c.before !== undefined ? `${c.before} → ` : ''}${c.content}`).join('\n');
}

/** One extraction in a few lines: extractor, counts, reason. */
export function renderExtractReport(r: ExtractReport): string {
  if (r.status === 'nothing' || r.status === 'busy' || r.status === 'disabled') return `${r.sessionId}: ${r.status} (${r.reason})`;
  if (r.status === 'failed') return `${r.sessionId}: failed after ${r.messages} messages, will retry (${r.error?.code ?? '-'}: ${r.error?.message ?? r.reason})`;
  const counts = (['added', 'updated', 'deleted', 'reinforced'] as const).filter((k) => r[k] > 0).map((k) => `${k} ${r[k]}`);
  const lines = [`${r.sessionId}: ${r.messages} new message${r.messages === 1 ? '' : 's'} · extractor ${r.extractor ?? '-'} · ${counts.length === 0 ? 'skipped' : counts.join(' · ')}`];
  if (r.reason) lines.push(`reason: ${r.reason}`);
  for (const x of r.rejected) lines.push(`rejected ${x.op}${x.target ? ` ${x.target}` : ''}: ${x.reason}`);
  return lines.join('\n');
}
