import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useI18n } from '../i18n/i18n';

/**
 * A modal question; Escape or Cancel closes it, focus starts on Cancel for destructive actions.
 * `children` go between the question and the buttons (a field to type into, a list of what goes);
 * `ready: false` keeps Confirm disabled until they are filled in as asked.
 */
export function Confirm({ message, danger, ready = true, children, onConfirm, onCancel }: {
  message: string; danger?: boolean; ready?: boolean; children?: ComponentChildren; onConfirm: () => void; onCancel: () => void;
}) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog ref={ref} class="confirm" aria-labelledby="confirm-text" onCancel={(e) => { e.preventDefault(); onCancel(); }}>
      <p id="confirm-text" dir="auto">{message}</p>
      {children}
      <div class="row end">
        <button type="button" autofocus onClick={onCancel}>{t('cancel')}</button>
        <button type="button" class={danger ? 'danger' : 'primary'} disabled={!ready} onClick={onConfirm}>{t('confirm')}</button>
      </div>
    </dialog>
  );
}
