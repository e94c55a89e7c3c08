import type { ServerResponse } from 'node:http';

/**
 * Answers 200 with `body` as JSON in one JSON.stringify and one res.end: what express's res.json writes for a POST
 * (Content-Type `application/json; charset=utf-8`, Content-Length, the same bytes), without its steps that only
 * matter to other answers (the app's json settings, the charset rewrite, the freshness check, and for a body of
 * 1000 characters or more a copy of the text into a Buffer). For the /internal POST routes, whose answers are large
 * (a batch of 500 readers) and never conditional; a GET, which may get an ETag (etagOnReads), keeps res.json.
 */
export function answerJson(res: ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}
