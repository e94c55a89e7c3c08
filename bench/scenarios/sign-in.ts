/** Signs in through the public API as a person would: ask for a code, read it from the dev outbox, verify it. */

interface OutboxMessage {
  channel: string;
  to: string;
  subject?: string;
  text?: string;
  createdAt: string;
}

async function call(url: string, method: string, path: string, body?: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(new URL(path, url), {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    throw new Error(`${method} ${path} failed: ${err instanceof Error ? err.message : String(err)}${cause}`);
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** The newest 6-digit code sent to this address (the outbox lists newest first). */
async function lastCode(url: string, email: string): Promise<string> {
  const { messages } = (await call(url, 'GET', '/api/dev/outbox')) as { messages: OutboxMessage[] };
  for (const message of messages) {
    if (message.to !== email) continue;
    const code = /\b\d{6}\b/.exec(message.text ?? '')?.[0];
    if (code) return code;
  }
  throw new Error(`no sign-in code for ${email} in the dev outbox`);
}

export interface SignedIn {
  token: string;
  user: { _id?: string; email?: string; [key: string]: unknown };
}

export async function signIn(url: string, email: string): Promise<SignedIn> {
  await call(url, 'POST', '/api/user/auth', { email });
  const otp = await lastCode(url, email);
  const verified = (await call(url, 'POST', '/api/user/verify', { email, otp })) as Partial<SignedIn>;
  if (typeof verified.token !== 'string' || !verified.token) {
    throw new Error(`POST /api/user/verify returned no token: ${JSON.stringify(verified).slice(0, 300)}`);
  }
  return { token: verified.token, user: verified.user ?? {} };
}
