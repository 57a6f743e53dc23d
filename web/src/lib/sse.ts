/** One server-sent event. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Incremental parser for `text/event-stream`. EventSource cannot send an Authorization header,
 * so the page reads the stream with fetch and feeds chunks here.
 */
export function createSseParser(onEvent: (e: SseEvent) => void): (chunk: string) => void {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  const dispatch = () => {
    if (data.length > 0) onEvent({ event: event || 'message', data: data.join('\n'), ...(id === undefined ? {} : { id }) });
    event = '';
    data = [];
  };
  return (chunk) => {
    buffer += chunk;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') dispatch();
      else if (line.startsWith(':')) continue;
      else {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'id') id = value;
      }
    }
  };
}
