import { z } from 'zod';
import { listOf, Memory } from '../api/schemas';
import { useAsync, useSession, userPath } from '../api/use-api';
import { ErrorBanner, Loading } from '../components/error-banner';
import { formatDate, useI18n } from '../i18n/i18n';
import { href } from '../lib/route';
import { StoredText } from '../components/stored-text';

const EpisodeData = z.looseObject({ summary: z.string().optional(), topics: z.array(z.string()).optional(), unresolved: z.string().nullish() }).catch({});

/** Session summaries as a timeline, newest first. */
export function EpisodesScreen() {
  const { t, lang } = useI18n();
  const { client, userId, liveVersion } = useSession();
  const episodes = useAsync(() => client.get(listOf(Memory), userPath(userId, '/episodes')), [userId, liveVersion]);
  const sorted = [...(episodes.data ?? [])].sort((a, b) => (b.happenedAt ?? b.createdAt).localeCompare(a.happenedAt ?? a.createdAt));
  return (
    <section aria-labelledby="episodes-h">
      <h1 id="episodes-h">{t('episodes')}</h1>
      <ErrorBanner error={episodes.error} onRetry={episodes.reload} />
      <Loading when={episodes.loading} />
      {episodes.data?.length === 0 && <p class="muted">{t('empty')}</p>}
      <ol class="timeline">
        {sorted.map((e) => {
          const d = EpisodeData.parse(e.structuredData ?? {});
          return (
            <li key={e.id}>
              <time class="muted">{formatDate(lang, e.happenedAt ?? e.createdAt)}</time>
              <p dir="auto"><a href={href('memory', e.id)}><StoredText text={d.summary ?? e.content} /></a></p>
              {d.topics && <p>{d.topics.map((x) => <span key={x} class="tag" dir="auto"><StoredText text={x} /></span>)}</p>}
              {d.unresolved && <p class="muted" dir="auto">? <StoredText text={d.unresolved} /></p>}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
