import { renderContext } from './context.js';
import { DEMO_USERS } from './demo-data.js';
import type { DemoReport, DemoStepRun } from './demo.js';
import { heading, num, table, whenIn } from './format.js';
import { renderChanges } from './memory-changes.js';
import { renderRecall } from './search.js';

export function indent(text: string, by = '  '): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : `${by}${l}`))
    .join('\n');
}

function outcome(step: DemoStepRun): string {
  const r = step.report;
  const calls = step.modelCalls === 0 ? 'no model call' : `${step.modelCalls} model call${step.modelCalls === 1 ? '' : 's'}`;
  if (r.status === 'nothing') return `→ nothing new: ${r.reason}${step.appended === 0 ? ' (this database already had these messages)' : ''}`;
  if (r.status === 'failed') return `→ ${r.extractor ?? '-'}: failed, will retry (${r.error?.code}: ${r.error?.message ?? r.reason})`;
  const counts = (['added', 'updated', 'deleted', 'reinforced'] as const).filter((k) => r[k] > 0).map((k) => `${k} ${r[k]}`);
  const what = counts.length === 0 ? 'skipped' : counts.join(' · ');
  return `→ ${r.extractor ?? '-'}: ${what} · ${calls}${r.reason ? `\n  reason: ${r.reason}` : ''}`;
}

function renderStep(step: DemoStepRun, n: number): string {
  const lines = [`${n}. ${step.sessionId} · ${step.label}`];
  for (const m of step.messages) lines.push(`   ${m.role === 'user' ? 'user' : 'bot '}: ${m.content}`);
  lines.push(indent(outcome(step), '   '));
  if (step.changes.length > 0) lines.push(indent(renderChanges(step.changes), '     '));
  return lines.join('\n');
}

function renderRemembered(r: DemoReport['remembered'][number]): string {
  const out = [`${r.userId}: ${r.memories.length} memories`];
  out.push(indent(table([{ header: 'kind' }, { header: 'imp', align: 'right' }, { header: 'content', max: 52 }], r.memories.map((m) => [m.kind, num(m.importance, 2), m.content]))));
  if (r.todos.length > 0) {
    out.push(`${r.userId}: ${r.todos.length} todo${r.todos.length === 1 ? '' : 's'} (due times in ${r.timeZone})`);
    out.push(indent(table([{ header: 'due' }, { header: 'todo' }], r.todos.map((t) => [t.dueAt ? whenIn(t.dueAt, r.timeZone) : '-', t.content + (t.completed ? ' (done)' : '')]))));
  }
  return out.join('\n');
}

export function renderDemo(r: DemoReport): string {
  const llm = r.extractor !== 'heuristic';
  const out: string[] = [
    heading('Engram demo', '═'),
    `database   ${r.db}`,
    `embedder   ${r.embedder} (first step ${r.firstStepSeconds.toFixed(1)} s, includes loading the model)`,
    `extractor  ${llm ? `${r.extractor} (the LLM from ENGRAM_LLM_*)` : 'heuristic: explicit statements only (set ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL for an LLM)'}`,
    '',
    'Each step stores messages with appendMessages(), then calls extract(userId, sessionId) by hand.',
    'In a real app the silence scheduler (startScheduler) extracts a session once it goes quiet.',
  ];
  let n = 0;
  for (const user of DEMO_USERS) {
    out.push('', heading(`${user.id} (${user.label}) talks`));
    for (const step of r.steps.filter((s) => s.userId === user.id)) out.push(renderStep(step, ++n));
  }
  out.push('', heading('Remembered'));
  for (const u of r.remembered) out.push(renderRemembered(u));
  r.queries.forEach((q, i) => {
    out.push('', heading(`${i + 1}. ${q.userId} asks: ${q.query}`));
    out.push(q.results.length === 0 ? '(no memories recalled)' : renderRecall(q.results, { ids: false, contentWidth: 40 }));
    out.push('context block:', indent(renderContext(q.context, { items: false })));
  });
  const iso = r.isolation;
  out.push('', heading(`Isolation: ${iso.userId} asks about ${iso.otherUserId}`));
  for (const p of iso.probes) {
    out.push(p.query);
    out.push(indent(p.results.length === 0 ? '(nothing)' : table([{ header: 'user' }, { header: 'kind' }, { header: 'content', max: 48 }], p.results.map((x) => [x.memory.userId, x.memory.kind, x.memory.content]))));
  }
  out.push(
    `${iso.userId}'s ${iso.queries} queries (${iso.probes.length} about ${iso.otherUserId}) recalled ${iso.results} memories; ` +
      `${iso.leaked} belonged to ${iso.otherUserId} ${iso.leaked === 0 ? '✓' : '✗ LEAK'}`,
  );
  const s = r.stats.extraction;
  out.push('', heading('Stats (this run)'));
  out.push(
    `batches ${s.batches} · model calls ${s.modelCalls} · heuristic runs ${s.heuristicRuns} · small talk skipped ${s.smallTalkSkipped} · failures ${s.failures}`,
    `added ${s.added} · updated ${s.updated} · deleted ${s.deleted} · reinforced ${s.reinforced} · rejected ${s.rejected}`,
  );
  const usage = r.stats.usage?.total;
  if (usage && usage.calls > 0) out.push(`tokens in ${usage.inputTokens} · out ${usage.outputTokens} over ${usage.calls} calls`);
  out.push('', `Explore: engram --db ${r.db} --user li-ming list   (or: todos, profile, search 猫)`);
  return out.join('\n');
}
