import type { ApiError } from '../api/client';
import type { Lang, Translate } from '../i18n/i18n';
import type { MessageKey } from '../i18n/messages';

/** What the form that failed knows about its request: enough to say an error in the page's language. */
export interface ErrorContext {
  /** What a code means for this request: the import's CONFLICT is always "this user already has data". */
  byCode?: Partial<Record<string, MessageKey>>;
  /** What the user typed, by the API's field name (`when`, `remind`, `content`): only the fields the request sent. */
  said?: Record<string, string>;
}

export interface ErrorText {
  /** A sentence in the page's language. */
  text: string;
  /** The server's own words (always English): for a report or a closer look. */
  serverMessage?: string;
  /** Whether the server's words stand in the text itself: only on the English page, and only where no sentence of ours says it. */
  inline: boolean;
}

/** The common codes, each in a sentence of its own. */
const SENTENCES: Record<string, MessageKey> = {
  NETWORK: 'errNetwork',
  INVALID_INPUT: 'errNotAccepted',
  PAYLOAD_TOO_LARGE: 'errTooLargeAlone',
  FORBIDDEN: 'errForbidden',
  NOT_FOUND: 'errNotFound',
  RATE_LIMITED: 'errRateLimited',
  CONFLICT: 'errConflict',
};
/** Codes whose server words say what to fix (which field, which limit): on the English page, a lead-in and then those words. */
const LEADS: Record<string, MessageKey> = { INVALID_INPUT: 'errInvalidInput', PAYLOAD_TOO_LARGE: 'errTooLarge' };

/**
 * A field the user typed can be refused in several ways; the server names them in `details.reason`.
 * Without a reason the '' sentence is the one true of every way (it quotes the words and shows what works).
 */
const FIELD_SENTENCES: Record<string, Record<string, MessageKey>> = {
  when: { '': 'errTodoWhen', 'no-time': 'errTodoWhenNoTime' },
  remind: { '': 'errTodoRemind', 'no-time': 'errTodoRemindNoTime', 'after-due': 'errTodoRemindAfterDue', 'no-due-time': 'errTodoRemindNoDueTime' },
};

/** The server's `details`, where the error carries them: the exact reason is said, not a sentence true of every reason. */
function detailsOf(error: ApiError): Readonly<Record<string, unknown>> {
  return error.details ?? {};
}

/** The field the refusal is about: the one the server names, else the only one the user typed. */
function fieldOf(error: ApiError, said: Record<string, string>): string | undefined {
  const named = detailsOf(error).field;
  if (typeof named === 'string') return named;
  const typed = Object.keys(said);
  return typed.length === 1 ? typed[0] : undefined;
}

/** What to tell the user about an error: a sentence in the page's language, and the server's words kept for a closer look. */
export function describeError(t: Translate, lang: Lang, error: ApiError, context: ErrorContext = {}): ErrorText {
  const serverMessage = error.message || undefined;
  const own = context.byCode?.[error.code];
  if (own) return { text: t(own), serverMessage, inline: false };
  if (error.code === 'INVALID_INPUT' && context.said) {
    const field = fieldOf(error, context.said);
    const sentences = field === undefined ? undefined : FIELD_SENTENCES[field];
    const words = field === undefined ? undefined : context.said[field];
    if (sentences && words !== undefined) {
      const reason = detailsOf(error).reason;
      const key = (typeof reason === 'string' ? sentences[reason] : undefined) ?? sentences['']!;
      return { text: t(key, { text: words }), serverMessage, inline: false };
    }
  }
  // The server writes English: on the English page its words may follow a lead-in; elsewhere they wait behind the sentence.
  if (lang === 'en' && serverMessage !== undefined) {
    const lead = LEADS[error.code] ?? (SENTENCES[error.code] ? undefined : 'errorTitle');
    if (lead) return { text: t(lead), serverMessage, inline: true };
  }
  return { text: t(SENTENCES[error.code] ?? 'errServer'), serverMessage, inline: false };
}
