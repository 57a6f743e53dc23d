import { useState } from 'preact/hooks';
import { listOf, Memory, HistoryEvent, Message } from '../api/schemas';
import { toApiError, useAsync, useSession, userPath } from '../api/use-api';
import type { ApiError } from '../api/client';
import { Confirm } from '../components/confirm';
import { ErrorBanner, Loading } from '../components/error-banner';
import { ImportanceMeter, KindTag } from '../components/memory-bits';
import { formatDate, kindName, useI18n } from '../i18n/i18n';
import { href } from '../lib/route';
import { MemoryEditor } from './memory-editor';
import { HistoryTimeline } from './history-timeline';
import { RelationsCard } from './relations-card';
import { StoredText } from '../components/stored-text';

/** One memory: content, scores, structured data, provenance, history, relations; edit and delete. */
export function MemoryScreen({ id }: { id: string }) {
  const { t, lang } = useI18n();
  const { client, userId, liveVersion } = useSession();
  const base = userPath(userId, `/memories/${encodeURIComponent(id)}`);
  const memory = useAsync(() => client.get(Memory, base), [base, liveVersion]);
  const history = useAsync(() => client.get(listOf(HistoryEvent), `${base}/history`), [base, liveVersion]);
  const [editing, setEditing] = useState(false);
  const [asking, setAsking] = useState<'delete' | 'purge' | null>(null);
  const [error, setError] = useState<ApiError>();
  const m = memory.data;

  const act = async (what: 'delete' | 'restore' | 'purge') => {
    setAsking(null);
    setError(undefined);
    try {
      if (what === 'delete') await client.del(base);
      else if (what === 'restore') await client.post(Memory, `${base}/restore`);
      else {
        await client.send('POST', `${base}/purge`);
        location.hash = href('memories');
        return;
      }
      memory.reload();
      history.reload();
    } catch (e) {
      setError(toApiError(e));
    }
  };

  return (
    <section aria-labelledby="memory-h">
      <p><a href={href('memories')}>← {t('back')}</a></p>
      <ErrorBanner error={memory.error} onRetry={memory.reload} />
      <ErrorBanner error={error} />
      <Loading when={memory.loading && !m} />
      {m && (
        <>
          <h1 id="memory-h" class="sr-only">{t('details')}</h1>
          <article class={`card memory status-${m.status}`}>
            {editing ? <MemoryEditor memory={m} onDone={(saved) => { setEditing(false); if (saved) { memory.reload(); history.reload(); } }} />
              : <p class="memory-content" dir="auto"><StoredText text={m.content} /></p>}
            <div class="row">
              <KindTag kind={m.kind} /> <span class="tag">{kindName(lang, m.status)}</span>
              {m.core && <span class="tag core">{t('core')}</span>}
              {!editing && <button type="button" onClick={() => setEditing(true)}>{t('edit')}</button>}
              {m.status !== 'deleted' ? <button type="button" class="danger" onClick={() => setAsking('delete')}>{t('delete')}</button>
                : <button type="button" onClick={() => void act('restore')}>{t('restore')}</button>}
              <button type="button" class="danger" onClick={() => setAsking('purge')}>{t('purge')}</button>
            </div>
            {asking && <Confirm danger message={t(asking === 'delete' ? 'confirmDelete' : 'confirmPurge')} onConfirm={() => void act(asking)} onCancel={() => setAsking(null)} />}
            <dl class="facts">
              <dt>{t('importance')}</dt><dd><ImportanceMeter value={m.importance} /></dd>
              {m.confidence !== undefined && <><dt>{t('confidence')}</dt><dd>{m.confidence.toFixed(2)}</dd></>}
              <dt>{t('source')}</dt><dd>{m.source ? kindName(lang, m.source) : '—'}{m.verified ? ' ✓' : ''}</dd>
              <dt>{t('language_')}</dt><dd>{m.language ?? '—'}</dd>
              <dt>{t('created')}</dt><dd>{formatDate(lang, m.createdAt)}</dd>
              <dt>{t('updated')}</dt><dd>{formatDate(lang, m.updatedAt)}</dd>
              <dt>{t('lastAccessed')}</dt><dd>{formatDate(lang, m.lastAccessedAt)}</dd>
              <dt>{t('accessCount')}</dt><dd>{m.accessCount ?? 0}</dd>
              {m.happenedAt && <><dt>{t('happenedAt')}</dt><dd>{formatDate(lang, m.happenedAt)}</dd></>}
            </dl>
            {m.structuredData && Object.keys(m.structuredData).length > 0 && (
              <><h2>{t('structuredData')}</h2><pre class="json">{JSON.stringify(m.structuredData, null, 2)}</pre></>
            )}
          </article>
          <Provenance memory={m} producedBy={history.data?.find((e) => e.action === 'create')?.producedBy ?? undefined} />
          <section class="card" aria-labelledby="history-h">
            <h2 id="history-h">{t('history')}</h2>
            <ErrorBanner error={history.error} />
            {history.data && <HistoryTimeline events={history.data} />}
          </section>
          <RelationsCard base={base} memoryId={m.id} />
        </>
      )}
    </section>
  );
}

function Provenance({ memory, producedBy }: { memory: Memory; producedBy?: string }) {
  const { t, lang } = useI18n();
  const { client, userId } = useSession();
  const p = memory.provenance;
  const sessionId = p?.sessionId ?? (typeof memory.sessionId === 'string' ? memory.sessionId : undefined);
  const ids = new Set(p?.messageIds ?? []);
  const messages = useAsync(
    async () => (sessionId && ids.size > 0 ? (await client.get(listOf(Message), userPath(userId, `/sessions/${encodeURIComponent(sessionId)}/messages`), { limit: 500 })).filter((x) => ids.has(x.id)) : []),
    [sessionId, memory.id],
  );
  return (
    <section class="card" aria-labelledby="prov-h">
      <h2 id="prov-h">{t('provenance')}</h2>
      <dl class="facts">
        <dt>{t('producedBy')}</dt><dd>{p?.producedBy ?? producedBy ? <code>{p?.producedBy ?? producedBy}</code> : memory.source ? kindName(lang, memory.source) : '—'}</dd>
        <dt>{t('session')}</dt><dd>{sessionId ? <a href={href('session', sessionId)}>{sessionId}</a> : '—'}</dd>
      </dl>
      <h3>{t('sourceMessages')}</h3>
      <ErrorBanner error={messages.error} />
      {ids.size === 0 && <p class="muted">{t('noSourceMessages')}</p>}
      <ol class="messages">
        {messages.data?.map((x) => (
          <li key={x.id} id={`msg-${x.id}`}><span class="role">{kindName(lang, x.role)}</span> <span dir="auto"><StoredText text={x.content} /></span>
            {sessionId && <> <a href={`${href('session', sessionId)}`} aria-label={`${t('session')} ${sessionId}`}>↗</a></>}</li>
        ))}
      </ol>
    </section>
  );
}
