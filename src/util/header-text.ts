/**
 * A header's text as the client wrote it. Node reads header bytes as Latin-1, so "jürgen" sent as
 * UTF-8 arrives as "jÃ¼rgen", another user. Bytes that read as UTF-8 are read so; anything else
 * (true Latin-1, or ASCII) stays as it came.
 */
export function headerText(value: string | undefined): string | undefined {
  if (value === undefined || !/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return value;
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.from(value, 'latin1'));
  return decoded.includes('\ufffd') ? value : decoded;
}
