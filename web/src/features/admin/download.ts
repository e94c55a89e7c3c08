import { withCsvBom } from '@nudge/contracts/csv';
import { ApiError, UNREACHABLE_MESSAGE } from '../../shared/http';
import { readToken } from '../../shared/storage';

/** Saves text as a file the browser downloads (a CSV with its byte order mark, see withCsvBom). */
export function saveFile(fileName: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const body = type.startsWith('text/csv') ? withCsvBom(text) : text;
  const url = URL.createObjectURL(new Blob([body], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export interface DownloadProgress {
  received: number;
  /** From Content-Length; null when the server streams without one. */
  total: number | null;
}

/**
 * A text answer (the CSV exports), read as it streams so a large file can show progress. Sends the token in the
 * body (POST) and as Bearer.
 */
export async function fetchText(
  method: 'GET' | 'POST',
  path: string,
  body?: Record<string, unknown>,
  onProgress?: (progress: DownloadProgress) => void,
): Promise<string> {
  const token = readToken();
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        accept: 'text/csv, application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
      body: method === 'POST' ? JSON.stringify({ ...body, token: token ?? undefined }) : undefined,
    });
  } catch {
    throw new ApiError(UNREACHABLE_MESSAGE, 0);
  }
  if (!response.ok) {
    const failure = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(failure?.message ?? `The request failed (HTTP ${response.status})`, response.status);
  }
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  if (!response.body) return response.text();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    text += decoder.decode(value, { stream: true });
    onProgress?.({ received, total });
  }
  return text + decoder.decode();
}
