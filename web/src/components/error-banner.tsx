import type { ApiError } from '../api/client';
import { useI18n } from '../i18n/i18n';
import { describeError, type ErrorContext } from '../lib/error-text';

/**
 * An error in the interface language, with its code and request id so a user can report it; the
 * server's own (English) words follow the sentence on the English page, else they wait in a
 * disclosure below it. `context`: what the form that failed knows about its request (error-text.ts).
 * `onRetry` only for a failed load: a failed change is shown next to its form and sent again from there.
 */
export function ErrorBanner({ error, onRetry, context }: { error: ApiError | undefined; onRetry?: () => void; context?: ErrorContext }) {
  const { t, lang } = useI18n();
  if (!error) return null;
  const { text, serverMessage, inline } = describeError(t, lang, error, context);
  return (
    <div class="error" role="alert" data-code={error.code}>
      <strong>{text}</strong>{inline && <> <span class="error-message" dir="auto">{serverMessage}</span></>}
      <span class="error-ref small"> (<code>{error.code}</code>{error.requestId && <span class="request-id">, {t('requestId')}: <code>{error.requestId}</code></span>})</span>
      {onRetry && <button type="button" onClick={onRetry}>{t('retry')}</button>}
      {!inline && serverMessage && (
        <details class="server-words small"><summary>{t('errServerWords')}</summary><span class="error-message" dir="auto" lang="en">{serverMessage}</span></details>
      )}
    </div>
  );
}

export function Loading({ when }: { when: boolean }) {
  const { t } = useI18n();
  return when ? <p class="muted" aria-live="polite">{t('loading')}</p> : null;
}
