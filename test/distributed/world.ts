// What the distributed scenarios share: the engines, a reader's and an admin's calls through the gateway of the
// topology (scripts/topology). Captured messages are read from the files of the process that sent them (the container
// topology has no dev outbox route): auth's sign-in codes, billing's notices, the worker's reminders.
import { join } from 'node:path';
import { type OutboxMessage, openFileOutbox } from '@nudge/platform';
import { jsonCall, until } from '@nudge/platform/testing';
import { cannotInstall, isInstalled } from '../../scripts/engines/install';
import type { Topology } from '../../scripts/topology/launcher';
import type { ProcessName } from '../../scripts/topology/manifests';

/** Why Kafka and Temporal cannot run here, or undefined. Under CI=true a missing engine fails the file. */
export async function missingEngines(): Promise<string | undefined> {
  for (const name of ['kafka', 'temporal'] as const) {
    const why = isInstalled(name) ? undefined : await cannotInstall(name);
    if (why && process.env.CI === 'true') throw new Error(`${name} is required under CI=true: ${why}`);
    if (why) return `${name}: ${why}`;
  }
  return undefined;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls (every 100 ms) until check() is true; the bus delivers between processes asynchronously. A check that throws
 * (a process restarting) counts as not yet; `what` may be a function, read when the wait fails.
 */
export const eventually = (
  check: () => Promise<boolean>,
  what: string | (() => string),
  ms = 30_000,
): Promise<void> =>
  until(() => check().catch(() => false), 'condition', ms, 100).catch(() => {
    throw new Error(`timed out after ${ms} ms waiting for ${typeof what === 'string' ? what : what()}`);
  });

/** The messages a process captured (newest first). */
export async function captured(topology: Topology, name: ProcessName): Promise<OutboxMessage[]> {
  const outbox = await openFileOutbox(join(topology.dataDirOf(name), 'outbox'));
  try {
    return await outbox.list(100_000);
  } finally {
    await outbox.close();
  }
}

/** A browser's calls through the gateway of a topology. */
export function client(topology: () => Topology) {
  const call = (method: string, path: string, body?: unknown, token?: string) =>
    jsonCall(topology().url, method, path, body, token);
  const ok = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await call(method, path, body, token);
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  /** Repeats a call until it answers 200 (a service learns of a new user or admin from auth's events). */
  const once200 = async (method: string, path: string, body?: unknown, token?: string) => {
    let answer: any;
    await eventually(async () => {
      const res = await call(method, path, body, token);
      answer = res.body;
      return res.status === 200;
    }, `${method} ${path} to answer 200`);
    return answer;
  };
  /** Signs in with the code auth mailed (read from auth's captured messages); names the reader unless told not to. */
  const signIn = async (email: string, opts: { timeZone?: string; names?: boolean } = {}) => {
    await ok('POST', '/api/user/auth', { email });
    let otp: string | undefined;
    await eventually(async () => {
      otp = (await captured(topology(), 'auth'))
        .find((m) => m.to === email && m.channel === 'email')
        ?.text.match(/\b(\d{6})\b/)?.[1];
      return otp !== undefined;
    }, `the sign-in code for ${email}`);
    const { token, user } = await ok('POST', '/api/user/verify', {
      email,
      otp,
      ...(opts.timeZone ? { timeZone: opts.timeZone } : {}),
    });
    if (opts.names !== false)
      await ok('POST', '/api/user/update', {
        email,
        token,
        info: { ageConfirmed: true, email, firstname: 'Rae', lastname: 'Reader' },
      });
    return { token: token as string, id: user._id as string, email };
  };
  return { call, ok, once200, signIn };
}

/** POST to a service's internal API with the topology's internal credential. */
export async function internal(topology: Topology, service: ProcessName, path: string, body: unknown) {
  const res = await fetch(`${topology.urlOf(service)}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-internal-token': topology.secrets.INTERNAL_SERVICE_TOKEN as string,
    },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${service} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}
