import type { ApiError } from '../api/client';
import { useI18n, type Translate } from '../i18n/i18n';
import type { MessageKey } from '../i18n/messages';

/**
 * The common codes in the interface language. The server's own message is kept where it says what
 * to fix (which field, which limit); for the others the code and request id stay beside the text.
 */
const FRIENDLY: Record<string, { key: MessageKey; keepMessage: boolean }> = {
  NETWORK: { key: 'errNetwork', keepMessage: false },
  INVALID_INPUT: { key: 'errInvalidInput', keepMessage: true },
  PAYLOAD_TOO_LARGE: { key: 'errTooLarge', keepMessage: true },
  FORBIDDEN: { key: 'errForbidden', keepMessage: false },
  NOT_FOUND: { key: 'errNotFound', keepMessage: false },
  RATE_LIMITED: { key: 'errRateLimited', keepMessage: false },
};

/** What to tell the user about an error: a sentence in their language, and the server's words when they help. */
export function describeError(t: Translate, error: ApiError): { text: string; serverMessage?: string } {
  const known = FRIENDLY[error.code];
  if (!known) return { text: t('errorTitle'), serverMessage: error.message };
  return { text: t(known.key), ...(known.keepMessage && error.message ? { serverMessage: error.message } : {}) };
}

/**
 * An error in the interface language, with its code and request id so a user can report it.
 * `onRetry` only for a failed load: a failed change is shown next to its form and sent again from there.
 */
export function ErrorBanner({ error, onRetry }: { error: ApiError | undefined; onRetry?: () => void }) {
  const { t } = useI18n();
  if (!error) return null;
  const { text, serverMessage } = describeError(t, error);
  return (
    <div class="error" role="alert" data-code={error.code}>
      <strong>{text}</strong>{serverMessage && <> <span class="error-message" dir="auto">{serverMessage}</span></>}
      <span class="error-ref small"> (<code>{error.code}</code>{error.requestId && <span class="request-id">, {t('requestId')}: <code>{error.requestId}</code></span>})</span>
      {onRetry && <button type="button" onClick={onRetry}>{t('retry')}</button>}
    </div>
  );
}

export function Loading({ when }: { when: boolean }) {
  const { t } = useI18n();
  return when ? <p class="muted" aria-live="polite">{t('loading')}</p> : null;
}
