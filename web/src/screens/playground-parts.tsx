import type { Recalled } from '../api/schemas';
import { KindTag } from '../components/memory-bits';
import { useI18n } from '../i18n/i18n';
import type { MessageKey } from '../i18n/messages';
import { href } from '../lib/route';
import { StoredText } from '../components/stored-text';

export interface AppliedOp {
  action: string;
  content: string;
  reason: string;
  memoryId?: string;
  producedBy?: string;
}

const OP_LABEL: Record<string, MessageKey> = {
  add: 'opAdd', create: 'opAdd', update: 'opUpdate', delete: 'opDelete', reinforce: 'opReinforce', skip: 'opSkip',
};

export function OperationsList({ ops }: { ops: AppliedOp[] }) {
  const { t } = useI18n();
  return (
    <ul class="ops">
      {ops.map((o, i) => {
        const label = OP_LABEL[o.action];
        return (
          <li key={i} class={`op op-${o.action}`}>
            <span class="tag">{label ? t(label) : o.action}</span>{' '}
            {o.memoryId ? <a href={href('memory', o.memoryId)} dir="auto"><StoredText text={o.content} /></a> : <span dir="auto"><StoredText text={o.content} /></span>}
            {o.reason && <span class="muted reason" dir="auto"> — <StoredText text={o.reason} /></span>}
            {o.producedBy && <code class="small"> {o.producedBy}</code>}
          </li>
        );
      })}
    </ul>
  );
}

const n = (v: number | null | undefined) => (v === undefined || v === null ? '—' : v.toFixed(3));

/** Recall hits with every score part. */
export function RecallTable({ items }: { items: Recalled[] }) {
  const { t } = useI18n();
  if (items.length === 0) return <p class="muted">{t('playNoRecall')}</p>;
  return (
    <div class="table-wrap">
      <table class="recall">
        <thead>
          <tr>
            <th scope="col">{t('content')}</th><th scope="col">{t('scoreFinal')}</th><th scope="col">{t('scoreRelevance')}</th>
            <th scope="col">{t('scoreVector')}</th><th scope="col">{t('scoreKeyword')}</th><th scope="col">{t('scoreRecency')}</th><th scope="col">{t('scoreImportance')}</th>
          </tr>
        </thead>
        <tbody>
          {items.map(({ memory, score }) => (
            <tr key={memory.id}>
              <td class="content-cell" dir="auto"><KindTag kind={memory.kind} /> <a href={href('memory', memory.id)}><StoredText text={memory.content} /></a></td>
              <td class="num"><strong>{n(score.final)}</strong></td><td class="num">{n(score.relevance)}</td><td class="num">{n(score.vector)}</td>
              <td class="num">{n(score.keyword)}</td><td class="num">{n(score.recency)}</td><td class="num">{n(score.importance)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
