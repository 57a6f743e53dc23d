import { useState } from 'preact/hooks';
import { z } from 'zod';
import { toApiError, useSession, userPath } from '../api/use-api';
import type { ApiError } from '../api/client';
import { ErrorBanner } from '../components/error-banner';
import { useI18n } from '../i18n/i18n';
import { ForgetCard } from './forget-card';
import { ForgottenCard } from './forgotten-card';

const ImportResult = z.looseObject({ memories: z.number().default(0), messages: z.number().default(0) });

/** Export a user as JSON (downloaded), import an export file, forget a topic or the whole user. */
export function DataScreen() {
  const { t } = useI18n();
  const { client, userId } = useSession();
  const [error, setError] = useState<ApiError>();
  const [done, setDone] = useState('');
  const download = async () => {
    setError(undefined);
    try {
      const data = await client.get(z.unknown(), userPath(userId, '/export'));
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `engram-${userId}.json`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      setError(toApiError(e));
    }
  };
  const upload = async (file: File | undefined) => {
    if (!file) return;
    setError(undefined);
    setDone('');
    try {
      const data: unknown = JSON.parse(await file.text());
      const r = await client.post(ImportResult, userPath(userId, '/import'), data);
      setDone(t('importDone', { memories: r.memories, messages: r.messages }));
    } catch (e) {
      setError(toApiError(e));
    }
  };
  return (
    <section aria-labelledby="data-h">
      <h1 id="data-h">{t('dataTitle')}</h1>
      {/* A conflict here is only ever the import's: the user already has data (an export goes into an empty user). */}
      <ErrorBanner error={error} context={{ byCode: { CONFLICT: 'errImportNotEmpty' } }} />
      <div class="card">
        <h2>{t('exportTitle')}</h2>
        <p class="muted">{t('exportHelp')}</p>
        <button type="button" class="primary" onClick={() => void download()}>{t('exportButton')}</button>
      </div>
      <div class="card">
        <h2>{t('importTitle')}</h2>
        <label for="import-file">{t('importHelp')}</label>
        <input id="import-file" type="file" accept="application/json,.json" onChange={(e) => void upload(e.currentTarget.files?.[0])} />
        {done && <p role="status">{done}</p>}
      </div>
      <ForgottenCard />
      <ForgetCard />
    </section>
  );
}
