import { markerOf, splitHidden } from '../lib/visible-text';

/**
 * Text as stored (a memory, a message, a todo, a summary), with the invisible characters that
 * would change how it reads (a right-to-left override, a NUL) shown as markers: ⟨U+202E⟩. Every
 * place the page shows stored text goes through here, so the page never shows other text than is kept.
 */
export function StoredText({ text }: { text: string }) {
  const pieces = splitHidden(text);
  if (pieces.length <= 1 && typeof pieces[0] !== 'object') return <>{text}</>;
  return (
    <>
      {pieces.map((p, i) => (typeof p === 'string' ? p : (
        <span key={i} class="hidden-char" title={p.name ? `${p.code} ${p.name}` : p.code}>{markerOf(p)}</span>
      )))}
    </>
  );
}
