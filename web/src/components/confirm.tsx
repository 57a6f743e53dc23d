import { useEffect, useRef } from 'preact/hooks';
import { useI18n } from '../i18n/i18n';

/** A modal question; Escape or Cancel closes it, focus starts on Cancel for destructive actions. */
export function Confirm({ message, danger, onConfirm, onCancel }: { message: string; danger?: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useI18n();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog ref={ref} class="confirm" aria-labelledby="confirm-text" onCancel={(e) => { e.preventDefault(); onCancel(); }}>
      <p id="confirm-text">{message}</p>
      <div class="row end">
        <button type="button" autofocus onClick={onCancel}>{t('cancel')}</button>
        <button type="button" class={danger ? 'danger' : 'primary'} onClick={onConfirm}>{t('confirm')}</button>
      </div>
    </dialog>
  );
}
