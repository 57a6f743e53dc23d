const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bytes decoded as UTF-8, strictly: a lenient decoder would store U+FFFD for bytes that are not
 * UTF-8, and the text would not be what was sent. Otherwise the offset of the first bad byte.
 */
export function strictUtf8(bytes: Uint8Array): { text: string } | { byteOffset: number } {
  try {
    return { text: utf8.decode(bytes) };
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return { byteOffset: Math.max(0, firstInvalidUtf8(bytes)) };
  }
}

/** The offset of the first byte a strict UTF-8 decoder refuses (WHATWG's ranges), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    // Per lead byte: how many continuation bytes, and the range of the first (no overlongs, surrogates or code points past U+10FFFF).
    const [n, lo, hi] = b >= 0xc2 && b <= 0xdf ? [1, 0x80, 0xbf] : b === 0xe0 ? [2, 0xa0, 0xbf] : b === 0xed ? [2, 0x80, 0x9f] : b >= 0xe1 && b <= 0xef ? [2, 0x80, 0xbf] : b === 0xf0 ? [3, 0x90, 0xbf] : b === 0xf4 ? [3, 0x80, 0x8f] : b >= 0xf1 && b <= 0xf3 ? [3, 0x80, 0xbf] : [0, 0, 0];
    if (n === 0) return i;
    for (let k = 1; k <= n; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? lo : 0x80) || next > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return -1;
}

