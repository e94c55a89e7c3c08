import { afterEach, describe, expect, it, vi } from 'vitest';
import { type DownloadProgress, fetchText } from './download';

const streamed = (chunks: string[], headers: Record<string, string>) => {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers });
};

describe('a streamed CSV download (EventLogs.csv)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reports the bytes received against Content-Length as the chunks arrive', async () => {
    const chunks = [
      'Id,User Id,User Email,Event Type,Event Value,Created On\n',
      'e1,u1,a@x.com,page_visit,/,c\n',
    ];
    const size = chunks.join('').length;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => streamed(chunks, { 'content-type': 'text/csv', 'content-length': String(size) })),
    );
    const seen: DownloadProgress[] = [];
    const text = await fetchText('POST', '/api/eventlogs/alllogs', {}, (p) => seen.push(p));
    expect(text).toBe(chunks.join(''));
    expect(seen).toEqual([
      { received: chunks[0]?.length, total: size },
      { received: size, total: size },
    ]);
  });

  it('has no total when the server streams without a length, and fails with the server message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => streamed(['a', 'b'], { 'content-type': 'text/csv' })),
    );
    const seen: DownloadProgress[] = [];
    await fetchText('POST', '/x', {}, (p) => seen.push(p));
    expect(seen.at(-1)).toEqual({ received: 2, total: null });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ status: false, message: 'Service unavailable' }, { status: 503 })),
    );
    await expect(fetchText('POST', '/x')).rejects.toThrow('Service unavailable');
  });
});
