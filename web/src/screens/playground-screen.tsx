import { useState } from 'preact/hooks';
import { z } from 'zod';
import { ContextBlock, ExtractReport, HistoryEvent, listOf, Memory, MemoryPage, Message, Recalled } from '../api/schemas';
import { toApiError, useAsync, useSession, userPath } from '../api/use-api';
import { ApiError } from '../api/client';
import { ErrorBanner } from '../components/error-banner';
import { useI18n } from '../i18n/i18n';
import { OperationsList, RecallTable, type AppliedOp } from './playground-parts';
import { StoredText } from '../components/stored-text';

/** The server's chat turn (POST /api/topics/{id}/messages): stored, and answered when a model is configured. */
const ChatReply = z.looseObject({ stored: z.boolean(), reply: z.string().nullable(), note: z.string().optional() });

/** Chat as a user; extract now; see recall (with score parts) and the exact context block. */
export function PlaygroundScreen() {
  const { t } = useI18n();
  const { client, userId } = useSession();
  const [sessionId, setSessionId] = useState(() => `play-${Date.now().toString(36)}`);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [recall, setRecall] = useState<Recalled[]>();
  const [context, setContext] = useState<ContextBlock>();
  const [report, setReport] = useState<ExtractReport>();
  const [ops, setOps] = useState<AppliedOp[]>([]);
  /** Whether the server answered with a model: unknown until the first message. */
  const [hasModel, setHasModel] = useState<boolean>();
  // The session named here on opening is new: it has no messages to ask for (the server would answer
  // 404) until one is sent, or another session's id is typed.
  const [started, setStarted] = useState(false);
  const sessionPath = userPath(userId, `/sessions/${encodeURIComponent(sessionId)}`);
  // A session exists from its first message on: before that, NOT_FOUND means an empty chat.
  const messages = useAsync(async () => (!started ? [] : client.get(listOf(Message), `${sessionPath}/messages`, { limit: 200 }).catch((e: unknown) => {
    if (e instanceof ApiError && e.code === 'NOT_FOUND') return [];
    throw e;
  })), [sessionPath, busy, started]);

  const guard = async (f: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    // Started once the turn is stored: asking for its messages as it is sent would meet the 404 of a session not there yet.
    try { await f(); setStarted(true); } catch (e) { setError(toApiError(e)); } finally { setBusy(false); }
  };

  const send = () => guard(async () => {
    const query = text.trim();
    if (!query) return;
    // What the assistant would get for this message, computed before it is stored.
    const [found, block] = await Promise.all([
      client.post(listOf(Recalled), userPath(userId, '/search'), { query, limit: 8 }),
      client.post(ContextBlock, userPath(userId, '/context'), { query, tokenBudget: 800, sessionId }),
    ]);
    setRecall(found);
    setContext(block);
    // The chat route stores the turn and, with a model, stores and returns the assistant's answer too.
    const answer = await client.post(ChatReply, `/api/topics/${encodeURIComponent(sessionId)}/messages`, { content: query }, { 'x-engram-user': userId });
    setHasModel(answer.reply !== null);
    setText('');
  });

  // The user's memories and when each last changed, to tell what an extraction did (no clocks compared).
  const snapshot = async (): Promise<Map<string, string>> => {
    const page = await client.get(MemoryPage, userPath(userId, '/memories'), { sort: 'updatedAt', order: 'desc', limit: 200, status: '' });
    return new Map(page.items.map((m: Memory) => [m.id, m.updatedAt]));
  };

  const extract = () => guard(async () => {
    const before = await snapshot();
    const r = await client.post(ExtractReport, `${sessionPath}/extract`);
    // The report and its operations appear together: never a summary above a list still loading.
    const ops = r.operations ? r.operations.map((o) => ({ action: o.op, content: o.content ?? '', reason: o.reason ?? '', memoryId: o.memoryId ?? undefined })) : await changedSince(before);
    setOps(ops);
    setReport(r);
  });

  // Without operations in the report, the memories that are new or changed since the snapshot, and
  // their extraction events after it, say what this extraction did.
  const changedSince = async (before: Map<string, string>): Promise<AppliedOp[]> => {
    const page = await client.get(MemoryPage, userPath(userId, '/memories'), { sort: 'updatedAt', order: 'desc', limit: 200, status: '' });
    const out: AppliedOp[] = [];
    for (const m of page.items.filter((x: Memory) => before.get(x.id) !== x.updatedAt)) {
      const was = before.get(m.id);
      const events = await client.get(listOf(HistoryEvent), userPath(userId, `/memories/${encodeURIComponent(m.id)}/history`));
      for (const e of events) {
        if (e.actor === 'extraction' && (was === undefined || e.at > was)) out.push({ action: e.action, content: m.content, reason: e.reason ?? '', memoryId: m.id, producedBy: e.producedBy ?? undefined });
      }
    }
    return out;
  };

  const heuristic = hasModel === undefined ? (report?.extractor ? /heuristic/i.test(report.extractor) : undefined) : !hasModel;
  return (
    <section aria-labelledby="play-h" class="playground">
      <h1 id="play-h">{t('playTitle')}</h1>
      <p class="muted">{t('playHelp')}</p>
      {heuristic === true && <p class="note" role="note">{t('playNoLlm')}</p>}
      {heuristic === false && <p class="note" role="note">{t('playLlm')}</p>}
      <div class="row">
        <label>{t('playSession')} <input id="play-session" value={sessionId} onChange={(e) => { setSessionId(e.currentTarget.value); setStarted(true); }} /></label>
      </div>
      <div class="play-grid">
        <div class="card chat">
          <ol class="messages" aria-live="polite">
            {messages.data?.map((m) => <li key={m.id} class={`bubble role-${m.role}`} dir="auto"><StoredText text={m.content} /></li>)}
          </ol>
          <form onSubmit={(e) => { e.preventDefault(); void send(); }}>
            <label for="play-input">{t('playMessage')}</label>
            <textarea id="play-input" dir="auto" rows={2} value={text} onInput={(e) => setText(e.currentTarget.value)}
              onKeyDown={(e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); void send(); } }} />
            <div class="row end">
              <button type="button" disabled={busy} onClick={() => void extract()}>{t('playExtract')}</button>
              <button type="submit" class="primary" disabled={busy}>{t('playSend')}</button>
            </div>
          </form>
          <ErrorBanner error={error ?? messages.error} />
        </div>
        <div class="col">
          {report && (
            <section class="card" aria-labelledby="ops-h">
              <h2 id="ops-h">{t('playOperations')}</h2>
              <p>{t('extractSummary', { added: report.added, updated: report.updated, deleted: report.deleted, reinforced: report.reinforced })} <span class="muted" dir="auto">{report.reason}</span></p>
              <OperationsList ops={ops} />
            </section>
          )}
          {recall && (
            <section class="card" aria-labelledby="recall-h">
              <h2 id="recall-h">{t('playRecall')}</h2>
              <RecallTable items={recall} />
            </section>
          )}
          {context && (
            <section class="card" aria-labelledby="context-h">
              <h2 id="context-h">{t('playContext')} · <span class="tokens">{t('playTokens', { n: context.tokens })}</span></h2>
              <pre class="context-block" dir="auto">{context.text ? <StoredText text={context.text} /> : t('playEmptyContext')}</pre>
            </section>
          )}
        </div>
      </div>
    </section>
  );
}
