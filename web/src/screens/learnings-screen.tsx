import { useState } from 'preact/hooks';
import { listOf, MemoryPage, Recalled, type Memory } from '../api/schemas';
import { useAsync, useSession, userPath } from '../api/use-api';
import { ErrorBanner, Loading } from '../components/error-banner';
import { formatDate, useI18n } from '../i18n/i18n';
import { href } from '../lib/route';
import { StoredText } from '../components/stored-text';

/** Learnings (skills: workflows and fixes that worked): all of them, or those for a task. */
export function LearningsScreen() {
  const { t, lang } = useI18n();
  const { client, userId, liveVersion } = useSession();
  const [draft, setDraft] = useState('');
  const [task, setTask] = useState('');
  const items = useAsync(async (): Promise<Memory[]> => task
    ? (await client.get(listOf(Recalled), userPath(userId, '/learnings'), { task, limit: 20 })).map((r) => r.memory)
    : (await client.get(MemoryPage, userPath(userId, '/memories'), { kind: 'skill', sort: 'updatedAt', order: 'desc', limit: 100 })).items,
  [userId, task, liveVersion]);
  return (
    <section aria-labelledby="learnings-h">
      <h1 id="learnings-h">{t('learnings')}</h1>
      <form class="filters" role="search" onSubmit={(e) => { e.preventDefault(); setTask(draft.trim()); }}>
        <label class="grow">{t('learningsTask')}<input type="search" value={draft} onInput={(e) => setDraft(e.currentTarget.value)} /></label>
        <button type="submit" class="primary">{t('search')}</button>
      </form>
      <ErrorBanner error={items.error} onRetry={items.reload} />
      <Loading when={items.loading} />
      {items.data?.length === 0 && <p class="muted">{t('empty')}</p>}
      <ul class="list">
        {items.data?.map((m) => (
          <li key={m.id} class="col">
            <a href={href('memory', m.id)} dir="auto"><StoredText text={m.content} /></a>
            <span class="muted small">{formatDate(lang, m.updatedAt)}</span>
            {m.structuredData && <pre class="json">{JSON.stringify(m.structuredData, null, 2)}</pre>}
          </li>
        ))}
      </ul>
    </section>
  );
}
