import type { ApiError } from '../api/client';
import { useI18n } from '../i18n/i18n';

/** A server error with its code, message and request id, so a user can report it. */
export function ErrorBanner({ error, onRetry }: { error: ApiError | undefined; onRetry?: () => void }) {
  const { t } = useI18n();
  if (!error) return null;
  return (
    <div class="error" role="alert">
      <strong>{t('errorTitle')}</strong> <code>{error.code}</code>: <span class="error-message">{error.message}</span>
      {error.requestId && <span class="request-id"> ({t('requestId')}: <code>{error.requestId}</code>)</span>}
      {onRetry && <button type="button" onClick={onRetry}>{t('retry')}</button>}
    </div>
  );
}

export function Loading({ when }: { when: boolean }) {
  const { t } = useI18n();
  return when ? <p class="muted" aria-live="polite">{t('loading')}</p> : null;
}
