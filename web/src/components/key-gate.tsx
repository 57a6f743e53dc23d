import { useState } from 'preact/hooks';
import { useI18n } from '../i18n/i18n';
import { LanguageSwitch } from './language-switch';

/** Asks for the API key; shown first, and again when the server rejects the key. */
export function KeyGate({ rejected, onKey }: { rejected: boolean; onKey: (key: string) => void }) {
  const { t } = useI18n();
  const [key, setKey] = useState('');
  return (
    <main class="gate">
      <div class="row between"><h1>{t('appName')}</h1><LanguageSwitch /></div>
      <p class="muted">{t('tagline')}</p>
      <form onSubmit={(e) => { e.preventDefault(); if (key.trim()) onKey(key.trim()); }}>
        <h2>{t('keyTitle')}</h2>
        {rejected && <p class="error" role="alert" id="key-error">{t('keyRejected')}</p>}
        <label for="api-key">{t('keyLabel')}</label>
        <input id="api-key" type="password" autocomplete="off" value={key} onInput={(e) => setKey(e.currentTarget.value)} aria-describedby="key-help" required />
        <p id="key-help" class="muted small">{t('keyHelp')}</p>
        <button type="submit" class="primary">{t('keySave')}</button>
      </form>
    </main>
  );
}
