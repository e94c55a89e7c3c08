/** Helpers for tests that talk to a service or the gateway over real HTTP. */
/* biome-ignore-all lint/suspicious/noExplicitAny: replies are walked freely in test assertions */

export interface JsonReply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON (CSV, HTML). */
  body: any;
}

/** One HTTP call with an optional JSON body and bearer token; never throws on a 4xx/5xx. */
export async function jsonCall(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<JsonReply> {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: parseJson(text) };
}

export function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A POST to a service's /internal route with the internal credential (null: without one); never throws on 4xx/5xx. */
export async function internalPost(
  base: string,
  path: string,
  body: unknown,
  credential: string | null,
): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(credential ? { 'x-internal-token': credential } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: parseJson(await res.text()) };
}

/** The data of an auth.UserRegistered.v1 event with the defaults a self sign-up gets, for tests that feed copies. */
export const userRegisteredData = (
  userId: string,
  email: string,
  role: 'user' | 'premium' | 'admin' = 'user',
  timeZone = 'UTC',
) => ({
  userId,
  email,
  source: 'self' as const,
  role,
  type: 0 as const,
  notiinfo: { time: '08:00', active: true },
  topics: [] as string[],
  timeZone,
});
