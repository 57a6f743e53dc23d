import { useState } from 'preact/hooks';
import { z } from 'zod';
import { listOf, Settings, Todo } from '../api/schemas';
import { toApiError, useAsync, useSession, userPath } from '../api/use-api';
import type { ApiError } from '../api/client';
import { ErrorBanner, Loading } from '../components/error-banner';
import { formatDate, useI18n } from '../i18n/i18n';
import { describeRecurrence } from '../../../src/domain/recurrence';

/** Todos with due times in the user's time zone (from settings) and how they repeat; move or reword, complete (this time, or the whole series) or delete. */
export function TodosScreen() {
  const { t, lang } = useI18n();
  const { client, userId, liveVersion } = useSession();
  const [completed, setCompleted] = useState('false');
  const todos = useAsync(() => client.get(listOf(Todo), userPath(userId, '/todos'), { completed }), [userId, completed, liveVersion]);
  const settings = useAsync(() => client.get(Settings, userPath(userId, '/settings')), [userId]);
  const tz = z.string().catch('UTC').parse(settings.data?.timeZone);
  const [error, setError] = useState<ApiError>();
  const run = async (f: () => Promise<unknown>): Promise<boolean> => {
    try { await f(); setError(undefined); todos.reload(); return true; } catch (e) { setError(toApiError(e)); return false; }
  };
  // The todo being moved: its words, the new time as typed ("下午四点", "Monday at 10am") and when the reminder comes ("提前半小时", "the day before", "下周一早上").
  const [moving, setMoving] = useState<{ id: string; content: string; when: string; remind: string }>();
  const move = async (original: string) => {
    if (!moving) return;
    const change = {
      ...(moving.when.trim() ? { when: moving.when.trim() } : {}),
      ...(moving.remind.trim() ? { remind: moving.remind.trim() } : {}),
      ...(moving.content.trim() && moving.content.trim() !== original ? { content: moving.content.trim() } : {}),
    };
    if (Object.keys(change).length === 0) return setMoving(undefined);
    if (await run(() => client.send('PATCH', userPath(userId, `/todos/${encodeURIComponent(moving.id)}`), change))) setMoving(undefined);
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
            <span class="muted">{todo.repeat && !todo.completed ? t('todoNext') : t('todoDue')}: {formatDate(lang, todo.dueAt, tz)}</span>
            {!todo.completed && todo.remindAt && todo.remindAt !== todo.dueAt && <span class="muted small">{t('todoReminder')}: {formatDate(lang, todo.remindAt, tz)}</span>}
            {todo.repeat && <span class="tag" title={t('todoRepeats')}>{describeRecurrence(todo.repeat, lang)}</span>}
            {!todo.completed && moving?.id !== todo.id && (
              <button type="button" onClick={() => setMoving({ id: todo.id, content: todo.content, when: '', remind: '' })}>{t('todoMove')}</button>
            )}
            {!todo.completed && (
              <button type="button" title={todo.repeat ? t('todoCompleteOnceHint') : undefined} onClick={() => void run(() => client.send('POST', userPath(userId, `/todos/${encodeURIComponent(todo.id)}/complete`)))}>
                {todo.repeat ? t('todoCompleteOnce') : t('todoComplete')}
              </button>
            )}
            {!todo.completed && todo.repeat && (
              <button type="button" onClick={() => void run(() => client.send('POST', userPath(userId, `/todos/${encodeURIComponent(todo.id)}/complete?series=true`)))}>{t('todoEndSeries')}</button>
            )}
            <button type="button" class="danger" onClick={() => void run(() => client.del(userPath(userId, `/todos/${encodeURIComponent(todo.id)}`)))}>{t('delete')}</button>
            {moving?.id === todo.id && (
              <form class="row todo-move" aria-label={t('todoMove')} onSubmit={(e) => { e.preventDefault(); void move(todo.content); }}>
                <label class="grow">{t('todoWords')} <input dir="auto" value={moving.content} onInput={(e) => setMoving({ ...moving, content: e.currentTarget.value })} /></label>
                <label class="grow">{t('todoWhen')} <input dir="auto" value={moving.when} placeholder={t('todoWhenHint')} onInput={(e) => setMoving({ ...moving, when: e.currentTarget.value })} /></label>
                <label class="grow">{t('todoRemind')} <input dir="auto" value={moving.remind} placeholder={t('todoRemindHint')} onInput={(e) => setMoving({ ...moving, remind: e.currentTarget.value })} /></label>
                <button type="submit" class="primary">{t('save')}</button>
                <button type="button" onClick={() => setMoving(undefined)}>{t('cancel')}</button>
              </form>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
