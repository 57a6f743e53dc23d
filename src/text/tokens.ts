import { countTokens as count } from 'gpt-tokenizer';

/** Counts tokens with a real BPE tokenizer (o200k_base, the GPT-4o family), for prompt budgets. */
export function countTokens(text: string): number {
  return count(text);
}
