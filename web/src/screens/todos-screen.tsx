import { useState } from 'preact/hooks';
import { z } from 'zod';
import { listOf, Settings, Todo } from '../api/schemas';
import { toApiError, useAsync, useSession, userPath } from '../api/use-api';
import type { ApiError } from '../api/client';
import { ErrorBanner, Loading } from '../components/error-banner';
import { formatDate, useI18n } from '../i18n/i18n';

/** Todos with due times in the user's time zone (from settings); complete or delete. */
export function TodosScreen() {
  const { t, lang } = useI18n();
  const { client, userId, liveVersion } = useSession();
  const [completed, setCompleted] = useState('false');
  const todos = useAsync(() => client.get(listOf(Todo), userPath(userId, '/todos'), { completed }), [userId, completed, liveVersion]);
  const settings = useAsync(() => client.get(Settings, userPath(userId, '/settings')), [userId]);
  const tz = z.string().catch('UTC').parse(settings.data?.timeZone);
  const [error, setError] = useState<ApiError>();
  const run = async (f: () => Promise<unknown>) => {
    try { await f(); todos.reload(); } catch (e) { setError(toApiError(e)); }
  };
  return (
    <section aria-labelledby="todos-h">
      <div class="row between">
        <h1 id="todos-h">{t('navTodos')}</h1>
        <label>{t('status')} <select value={completed} onChange={(e) => setCompleted(e.currentTarget.value)}>
          <option value="false">{t('todoOpen')}</option><option value="true">{t('todoCompleted')}</option><option value="">{t('any')}</option></select></label>
      </div>
      <p class="muted small">{t('timeZoneNote', { tz })}</p>
      <ErrorBanner error={todos.error ?? error} onRetry={todos.reload} />
      <Loading when={todos.loading} />
      {todos.data?.length === 0 && <p class="muted">{t('empty')}</p>}
      <ul class="list">
        {todos.data?.map((todo) => (
          <li key={todo.id} class={todo.completed ? 'done' : ''}>
            <span dir="auto" class="grow">{todo.content}</span>
            <span class="muted">{t('todoDue')}: {formatDate(lang, todo.dueAt, tz)}</span>
            {!todo.completed && <button type="button" onClick={() => void run(() => client.send('POST', userPath(userId, `/todos/${encodeURIComponent(todo.id)}/complete`)))}>{t('todoComplete')}</button>}
            <button type="button" class="danger" onClick={() => void run(() => client.del(userPath(userId, `/todos/${encodeURIComponent(todo.id)}`)))}>{t('delete')}</button>
          </li>
        ))}
      </ul>
    </section>
  );
}
