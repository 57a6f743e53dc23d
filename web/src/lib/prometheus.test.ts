import { describe, expect, it } from 'vitest';
import { buckets, parseMetrics, sumBy } from './prometheus';

const TEXT = `# HELP engram_memories Memories by kind
# TYPE engram_memories gauge
engram_memories{kind="fact",status="active"} 3
engram_memories{kind="fact",status="deleted"} 1
engram_memories{kind="preference",status="active"} 2
engram_recall_seconds_bucket{le="0.01"} 4
engram_recall_seconds_bucket{le="0.1"} 9
engram_recall_seconds_bucket{le="+Inf"} 10
engram_model_tokens_total{prompt="extract-memories@3",type="input"} 120
engram_model_tokens_total{prompt="extract-memories@3",type="output"} 30
engram_weird{note="说 \\"你好\\""} 1
not a metric line
`;

describe('parseMetrics', () => {
  const samples = parseMetrics(TEXT);
  it('reads samples with labels, skipping comments and junk', () => {
    expect(samples).toHaveLength(9);
    expect(samples[0]).toEqual({ name: 'engram_memories', labels: { kind: 'fact', status: 'active' }, value: 3 });
    expect(samples.at(-1)?.labels.note).toBe('说 "你好"');
  });
  it('sums by a label', () => {
    expect(Object.fromEntries(sumBy(samples, 'engram_memories', 'kind'))).toEqual({ fact: 4, preference: 2 });
    expect(sumBy(samples, 'engram_model_tokens_total', 'prompt').get('extract-memories@3')).toBe(150);
    expect(Object.fromEntries(sumBy(samples, 'engram_memories', 'kind', { status: 'active' }))).toEqual({ fact: 3, preference: 2 });
  });
  it('orders histogram buckets with +Inf last', () => {
    expect(buckets(samples, 'engram_recall_seconds')).toEqual([[0.01, 4], [0.1, 9], [Number.POSITIVE_INFINITY, 10]]);
  });
});
