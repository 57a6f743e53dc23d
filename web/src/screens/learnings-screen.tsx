import { z } from 'zod';
import { listOf, Memory, Recalled } from '../api/schemas';
import { useAsync, useSession, userPath } from '../api/use-api';
import { ErrorBanner, Loading } from '../components/error-banner';
import { formatDate, useI18n } from '../i18n/i18n';
import { href } from '../lib/route';

const Learning = z.union([Recalled.transform((r) => r.memory), Memory]);

/** Learnings (skills: workflows and fixes that worked), with their steps. */
export function LearningsScreen() {
  const { t, lang } = useI18n();
  const { client, userId, liveVersion } = useSession();
  const items = useAsync(() => client.get(listOf(Learning), userPath(userId, '/learnings')), [userId, liveVersion]);
  return (
    <section aria-labelledby="learnings-h">
      <h1 id="learnings-h">{t('learnings')}</h1>
      <ErrorBanner error={items.error} onRetry={items.reload} />
      <Loading when={items.loading} />
      {items.data?.length === 0 && <p class="muted">{t('empty')}</p>}
      <ul class="list">
        {items.data?.map((m) => (
          <li key={m.id} class="col">
            <a href={href('memory', m.id)} dir="auto">{m.content}</a>
            <span class="muted small">{formatDate(lang, m.updatedAt)}</span>
            {m.structuredData && <pre class="json">{JSON.stringify(m.structuredData, null, 2)}</pre>}
          </li>
        ))}
      </ul>
    </section>
  );
}
