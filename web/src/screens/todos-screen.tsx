import { useEffect, useState } from 'preact/hooks';
import { z } from 'zod';
import { listOf, Settings, Todo } from '../api/schemas';
import { toApiError, useAsync, useSession, userPath } from '../api/use-api';
import type { ApiError } from '../api/client';
import { Confirm } from '../components/confirm';
import { ErrorBanner, Loading } from '../components/error-banner';
import { formatDate, useI18n } from '../i18n/i18n';
import { describeRecurrence } from '../../../src/domain/recurrence';
import { StoredText } from '../components/stored-text';
import { visibleText } from '../lib/visible-text';

/** Todos with due times in the user's time zone (from settings) and how they repeat; move or reword, complete (this time, or the whole series) or delete. */
export function TodosScreen() {
  const { t, lang } = useI18n();
  const { client, userId, liveVersion } = useSession();
  const [completed, setCompleted] = useState<'false' | 'true' | ''>('false');
  // The API lists open todos unless asked for completed ones, so "any" asks for both: open first.
  // Each answer says which list it is, so after a change of list the old one is not shown as the new.
  const todos = useAsync(async () => {
    const list = (done: 'true' | 'false') => client.get(listOf(Todo), userPath(userId, '/todos'), { completed: done });
    if (completed) return { completed, items: await list(completed) };
    const [open, done] = await Promise.all([list('false'), list('true')]);
    return { completed, items: [...open, ...done] };
  }, [userId, completed, liveVersion]);
  const shown = todos.data?.completed === completed ? todos.data.items : undefined;
  const settings = useAsync(() => client.get(Settings, userPath(userId, '/settings')), [userId]);
  const tz = z.string().catch('UTC').parse(settings.data?.timeZone);
  const now = useNow();
  // A failed change is shown on the todo it was about (in its move form when that is open), with
  // what was typed, so a refusal can quote it in the page's language.
  const [failed, setFailed] = useState<{ id: string; error: ApiError; said?: Record<string, string> }>();
  const run = async (id: string, f: () => Promise<unknown>, said?: Record<string, string>): Promise<boolean> => {
    try { await f(); setFailed(undefined); todos.reload(); return true; } catch (e) { setFailed({ id, error: toApiError(e), ...(said ? { said } : {}) }); return false; }
  };
  // Deleting a todo and ending a series are asked about first.
  const [asking, setAsking] = useState<{ todo: Todo; action: 'delete' | 'endSeries' }>();
  const answer = () => {
    if (!asking) return;
    const { todo, action } = asking;
    setAsking(undefined);
    const path = userPath(userId, `/todos/${encodeURIComponent(todo.id)}`);
    void run(todo.id, () => (action === 'delete' ? client.del(path) : client.send('POST', `${path}/complete?series=true`)));
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
    if (await run(moving.id, () => client.send('PATCH', userPath(userId, `/todos/${encodeURIComponent(moving.id)}`), change), change)) setMoving(undefined);
  };
  return (
    <section aria-labelledby="todos-h">
      <div class="row between">
        <h1 id="todos-h">{t('navTodos')}</h1>
        <label>{t('status')} <select value={completed} onChange={(e) => setCompleted(e.currentTarget.value as typeof completed)}>
          <option value="false">{t('todoOpen')}</option><option value="true">{t('todoCompleted')}</option><option value="">{t('any')}</option></select></label>
      </div>
      <p class="muted small">{t('timeZoneNote', { tz })}</p>
      {completed === '' && <p class="muted small">{t('todoAnyNote')}</p>}
      <ErrorBanner error={todos.error} onRetry={todos.reload} />
      <Loading when={todos.loading && !shown} />
      {shown?.length === 0 && <p class="muted">{t('empty')}</p>}
      {asking && (
        <Confirm danger message={t(asking.action === 'delete' ? 'confirmDeleteTodo' : 'confirmEndSeries', { content: visibleText(asking.todo.content) })}
          onConfirm={answer} onCancel={() => setAsking(undefined)} />
      )}
      <ul class="list">
        {shown?.map((todo) => (
          <li key={todo.id} class={todo.completed ? 'done' : isOverdue(todo, now) ? 'overdue' : ''}>
            {todo.completed && <span class="tag done">{t('todoDone')}</span>}
            {isOverdue(todo, now) && <span class="tag overdue">{t('todoOverdue')}</span>}
            <span dir="auto" class="grow"><StoredText text={todo.content} /></span>
            {todo.completed && todo.completedAt && <span class="muted small completed-at">{t('todoCompletedAt')}: {formatDate(lang, todo.completedAt, tz)}</span>}
            <span class="muted due">{todo.repeat && !todo.completed ? t('todoNext') : t('todoDue')}: {formatDate(lang, todo.dueAt, tz)}</span>
            {!todo.completed && todo.remindAt && todo.remindAt !== todo.dueAt && <span class="muted small">{t('todoReminder')}: {formatDate(lang, todo.remindAt, tz)}</span>}
            {todo.repeat && <span class="tag" title={t('todoRepeats')}>{describeRecurrence(todo.repeat, lang)}</span>}
            {!todo.completed && moving?.id !== todo.id && (
              <button type="button" onClick={() => setMoving({ id: todo.id, content: todo.content, when: '', remind: '' })}>{t('todoMove')}</button>
            )}
            {!todo.completed && (
              <button type="button" title={todo.repeat ? t('todoCompleteOnceHint') : undefined} onClick={() => void run(todo.id, () => client.send('POST', userPath(userId, `/todos/${encodeURIComponent(todo.id)}/complete`)))}>
                {todo.repeat ? t('todoCompleteOnce') : t('todoComplete')}
              </button>
            )}
            {!todo.completed && todo.repeat && (
              <button type="button" onClick={() => setAsking({ todo, action: 'endSeries' })}>{t('todoEndSeries')}</button>
            )}
            <button type="button" class="danger" onClick={() => setAsking({ todo, action: 'delete' })}>{t('delete')}</button>
            {moving?.id === todo.id && (
              <form class="row todo-move" aria-label={t('todoMove')} onSubmit={(e) => { e.preventDefault(); void move(todo.content); }}>
                <label class="grow">{t('todoWords')} <input dir="auto" value={moving.content} onInput={(e) => setMoving({ ...moving, content: e.currentTarget.value })} /></label>
                <label class="grow">{t('todoWhen')} <input dir="auto" value={moving.when} placeholder={t('todoWhenHint')} onInput={(e) => setMoving({ ...moving, when: e.currentTarget.value })} /></label>
                <label class="grow">{t('todoRemind')} <input dir="auto" value={moving.remind} placeholder={t('todoRemindHint')} onInput={(e) => setMoving({ ...moving, remind: e.currentTarget.value })} /></label>
                <button type="submit" class="primary">{t('save')}</button>
                <button type="button" onClick={() => { setMoving(undefined); setFailed(undefined); }}>{t('cancel')}</button>
                {failed?.id === todo.id && <div class="todo-error"><ErrorBanner error={failed.error} context={{ said: failed.said }} /></div>}
              </form>
            )}
            {failed?.id === todo.id && moving?.id !== todo.id && <div class="todo-error"><ErrorBanner error={failed.error} /></div>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** An open todo whose time has passed (a series' next time included): marked, so it is not read as one still to come. */
function isOverdue(todo: Pick<Todo, 'completed' | 'dueAt'>, now: number): boolean {
  return !todo.completed && !!todo.dueAt && Date.parse(todo.dueAt) < now;
}

/** The time now, again every minute: a todo becomes overdue while the list is open. */
function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
