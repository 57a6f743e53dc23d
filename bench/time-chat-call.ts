/** Milliseconds of one Chat Completions call: until the whole body (stream false) or its first chunk (stream true). */
export async function timeChatCall(base: string, body: unknown, stream: boolean): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${base}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok || !res.body) throw new Error(`status ${res.status}`);
  if (!stream) {
    await res.arrayBuffer();
    return performance.now() - t;
  }
  const reader = res.body.getReader();
  await reader.read();
  const elapsed = performance.now() - t;
  while (!(await reader.read()).done);
  return elapsed;
}
