import { listOf, Message } from '../api/schemas';
import { useAsync, useSession, userPath } from '../api/use-api';
import { ErrorBanner, Loading } from '../components/error-banner';
import { formatDate, kindName, useI18n } from '../i18n/i18n';
import { StoredText } from '../components/stored-text';

/** A session's raw messages: where provenance links lead. */
export function SessionScreen({ id }: { id: string }) {
  const { t, lang } = useI18n();
  const { client, userId, liveVersion } = useSession();
  const messages = useAsync(() => client.get(listOf(Message), userPath(userId, `/sessions/${encodeURIComponent(id)}/messages`), { limit: 500 }), [id, liveVersion]);
  return (
    <section aria-labelledby="session-h">
      <h1 id="session-h">{t('session')} <code>{id}</code></h1>
      <ErrorBanner error={messages.error} onRetry={messages.reload} />
      <Loading when={messages.loading} />
      <ol class="messages">
        {messages.data?.map((m) => (
          <li key={m.id} id={`msg-${m.id}`} class={`role-${m.role}`}>
            <span class="role">{kindName(lang, m.role)}</span> <time class="muted">{formatDate(lang, m.createdAt)}</time>
            <p dir="auto"><StoredText text={m.content} /></p>
          </li>
        ))}
      </ol>
    </section>
  );
}
