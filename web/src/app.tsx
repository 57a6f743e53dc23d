import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, createClient } from './api/client';
import { listOf, User } from './api/schemas';
import { SessionContext, useAsync } from './api/use-api';
import { KeyGate } from './components/key-gate';
import { LanguageSwitch } from './components/language-switch';
import { ErrorBanner } from './components/error-banner';
import { detectLang, I18nContext, LANG_STORAGE_KEY, translator, useI18n, type Lang } from './i18n/i18n';
import type { MessageKey } from './i18n/messages';
import { Access, isAdmin } from './lib/access';
import { useLiveEvents } from './lib/live';
import { href, parseHash, useRoute } from './lib/route';
import { Screen } from './screens/screen';

// Only background work gets a toast; a change the user just made reloads the screen quietly.
const LIVE_LABEL: Record<string, MessageKey> = { 'extraction.done': 'liveExtractionDone', 'todo.due': 'liveTodoDue' };
const KEY_STORAGE = 'engram.key';
const USER_STORAGE = 'engram.user';
// Set when the server refused the stored key, so the key screen still says why after a reload
// (a request in flight can meet the refusal just before the page is reloaded).
const REJECTED_STORAGE = 'engram.keyRejected';

const NAV: Array<[string, MessageKey]> = [
  ['memories', 'navMemories'], ['todos', 'navTodos'], ['episodes', 'navEpisodes'], ['profile', 'navProfile'],
  ['learnings', 'navLearnings'], ['settings', 'navSettings'], ['data', 'navData'], ['mirror', 'navMirror'],
  ['playground', 'navPlayground'], ['operator', 'navOperator'],
];

export function App() {
  const [lang, setLangState] = useState<Lang>(() => detectLang(localStorage.getItem(LANG_STORAGE_KEY), navigator.languages));
  const i18n = useMemo(() => ({
    lang,
    t: translator(lang),
    setLang: (l: Lang) => { localStorage.setItem(LANG_STORAGE_KEY, l); setLangState(l); },
  }), [lang]);
  useEffect(() => { document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en'; }, [lang]);

  // null: ask for a key; '' : the server's open mode (loopback, no keys configured yet).
  const [key, setKey] = useState<string | null>(() => localStorage.getItem(KEY_STORAGE));
  const [rejected, setRejected] = useState(() => key === null && sessionStorage.getItem(REJECTED_STORAGE) !== null);
  const [probing, setProbing] = useState(key === null);
  useEffect(() => {
    if (key !== null) return;
    // Without a key /v1/me answers `none` or `open` (not a 401): whether this server needs a key at all.
    fetch('/v1/me').then(async (res) => Access.safeParse(res.ok ? await res.json() : null)).then(
      (answer) => { if (answer.success && answer.data.access === 'open') setKey(''); setProbing(false); },
      (error: unknown) => { console.warn('open-mode probe', error); setProbing(false); },
    );
  }, []);
  const forgetKey = (why: 'rejected' | 'changed') => {
    localStorage.removeItem(KEY_STORAGE);
    // What the old key chose or opened is not the next key's: its user may be another tenant's, or
    // one the next key may not act for, and an opened memory or session belongs to the old key's tenant.
    localStorage.removeItem(USER_STORAGE);
    const { screen, arg } = parseHash(location.hash);
    if (arg !== undefined) history.replaceState(null, '', `${location.pathname}${location.search}${href(screen === 'memory' || screen === 'session' ? 'memories' : screen)}`);
    if (why === 'rejected') sessionStorage.setItem(REJECTED_STORAGE, '1');
    else sessionStorage.removeItem(REJECTED_STORAGE);
    setRejected(why === 'rejected');
    setKey(null);
  };
  const onKey = (k: string) => { localStorage.setItem(KEY_STORAGE, k); sessionStorage.removeItem(REJECTED_STORAGE); setRejected(false); setKey(k); };
  const onUnauthorized = (_e: ApiError) => forgetKey('rejected');

  return (
    <I18nContext.Provider value={i18n}>
      {key !== null ? <Shell key={key} apiKey={key} onUnauthorized={onUnauthorized} onChangeKey={() => forgetKey('changed')} />
        : probing ? null : <KeyGate rejected={rejected} onKey={onKey} />}
    </I18nContext.Provider>
  );
}

function Shell({ apiKey, onUnauthorized, onChangeKey }: { apiKey: string; onUnauthorized: (e: ApiError) => void; onChangeKey: () => void }) {
  const { t } = useI18n();
  const client = useMemo(() => createClient({ key: apiKey, onUnauthorized }), [apiKey]);
  const users = useAsync(() => client.get(listOf(User), '/v1/users'), [client]);
  // Only the admin key may read /metrics (the operator view): the page asks who the key is rather
  // than try /metrics and meet a 403; a tenant key has no Operator tab.
  const access = useAsync(() => client.get(Access, '/v1/me'), [client]);
  const admin = access.data ? isAdmin(access.data) : undefined;
  const nav = admin === false ? NAV.filter(([screen]) => screen !== 'operator') : NAV;
  const [userId, setUserIdState] = useState(() => localStorage.getItem(USER_STORAGE) ?? '');
  const setUserId = (u: string) => { localStorage.setItem(USER_STORAGE, u); setUserIdState(u); };
  useEffect(() => {
    const first = users.data?.[0];
    if (!userId && first) setUserId(first);
  }, [users.data]);
  // A key bound to one user acts only for them: they are the user, even before they have any data.
  useEffect(() => {
    const bound = access.data?.boundUserId;
    if (bound !== undefined && bound !== userId) setUserId(bound);
  }, [access.data]);
  const [liveVersion, setLiveVersion] = useState(0);
  const [toast, setToast] = useState('');
  const connected = useLiveEvents(apiKey, (e) => {
    setLiveVersion((n) => n + 1);
    const label = LIVE_LABEL[e.event];
    if (label) setToast(t(label));
  });
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(''), 4000);
    return () => clearTimeout(timer);
  }, [toast]);
  const route = useRoute();
  const session = useMemo(() => ({ client, userId, liveVersion, reloadUsers: users.reload }), [client, userId, liveVersion, users.reload]);
  const [draft, setDraft] = useState('');

  return (
    <SessionContext.Provider value={session}>
      <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>{t('skipToContent')}</a>
      <header class="top">
        <strong class="brand">{t('appName')}</strong>
        <form class="user-pick" onSubmit={(e) => { e.preventDefault(); if (draft.trim()) { setUserId(draft.trim()); setDraft(''); } }}>
          <label for="user-select">{t('user')}</label>
          <select id="user-select" value={userId} onChange={(e) => setUserId(e.currentTarget.value)}>
            {!userId && <option value="">{t('userPick')}</option>}
            {[...new Set([...(users.data ?? []), ...(userId ? [userId] : [])])].map((u) => <option key={u} value={u}>{u}</option>)}
          </select>
          <label for="user-input" class="sr-only">{t('userOther')}</label>
          <input id="user-input" placeholder={t('userOther')} value={draft} onInput={(e) => setDraft(e.currentTarget.value)} size={14} />
        </form>
        <span class={connected ? 'live on' : 'live'} role="status" title="/v1/events">{connected ? `● ${t('live')}` : `○ ${t('liveOff')}`}</span>
        <LanguageSwitch />
        <a href="/docs" target="_blank" rel="noopener">{t('apiDocs')}</a>
        <button type="button" onClick={onChangeKey}>{t('keyChange')}</button>
      </header>
      <nav class="tabs" aria-label="Engram">
        {nav.map(([screen, label]) => (
          <a key={screen} href={href(screen)} aria-current={route.screen === screen || (screen === 'memories' && route.screen === 'memory') ? 'page' : undefined}>{t(label)}</a>
        ))}
      </nav>
      <main id="main" tabIndex={-1}>
        <ErrorBanner error={users.error} onRetry={users.reload} />
        {userId || route.screen === 'operator' ? <Screen route={route} admin={admin} key={userId} /> : <p class="muted">{t('noUsers')}</p>}
      </main>
      {toast && <div class="toast" role="status">{toast}</div>}
    </SessionContext.Provider>
  );
}
