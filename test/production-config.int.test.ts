// NODE_ENV=production refuses to start on an embedded adapter, a generated key or a missing secret: each
// case starts the real entry file of a process and expects it to exit 1 before it opens anything, with a message
// naming the variable.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ConfigError,
  loadConfig,
  loadInternalToken,
  loadLinkSecrets,
  loadSecrets,
  loadVerifyKey,
  PRODUCTION_NEEDS,
  type ProcessName,
} from '@nudge/platform';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'nudge-prodcfg-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Everything a production process may need, set (the values are never used: no case gets as far as connecting). */
const FULL = {
  NODE_ENV: 'production',
  DOCUMENT_STORE: 'mongodb',
  MONGODB_URL: 'mongodb://mongo.invalid:27017',
  EVENT_BUS: 'kafka',
  KAFKA_BROKERS: 'kafka.invalid:9092',
  KAFKA_SSL: 'on',
  ANALYTICS_STORE: 'clickhouse',
  CLICKHOUSE_URL: 'http://clickhouse.invalid:8123',
  TEMPORAL_ADDRESS: 'temporal.invalid:7233',
  TEMPORAL_TLS: 'on',
  TOKEN_PRIVATE_KEY: 'private-pem',
  TOKEN_PUBLIC_KEY: 'public-pem',
  LINK_TOKEN_SECRET: 'l'.repeat(40),
  INTERNAL_SERVICE_TOKEN: 'i'.repeat(40),
  MAIL_TRANSPORT: 'smtp',
  SMTP_URL: 'smtp://mail.invalid:25',
};
const without = (...keys: string[]) =>
  Object.fromEntries(Object.entries(FULL).filter(([k]) => !keys.includes(k))) as Record<string, string>;

const ENTRIES: Partial<Record<ProcessName, string>> = {
  standalone: 'deploy/standalone/src/main.ts',
  auth: 'services/auth/src/main.ts',
  content: 'services/content/src/main.ts',
  billing: 'services/billing/src/main.ts',
  reporting: 'services/reporting/src/main.ts',
  workflows: 'workflows/src/main.ts',
};

/** Starts a process's entry file with exactly `env` (plus PATH/HOME) and a fresh DATA_DIR; resolves when it exits. */
function run(process: ProcessName, env: Record<string, string>) {
  const dataDir = mkdtempSync(join(scratch, `${process}-`));
  return new Promise<{ code: number | null; stderr: string; dataDir: string }>((done, fail) => {
    const child = spawn('node', ['--import', 'tsx', ENTRIES[process] as string], {
      cwd: root,
      env: {
        PATH: globalThis.process.env.PATH ?? '',
        HOME: globalThis.process.env.HOME ?? '',
        DATA_DIR: dataDir,
        PORT: '0',
        SERVICE_PORT: '0',
        METRICS_PORT: '0',
        LOG_LEVEL: 'silent',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${process} did not refuse within 90 s; stderr:\n${stderr}`));
    }, 90_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stderr, dataDir });
    });
  });
}

/** `named`: the variables the message lists as problems; `mentions`: others it tells the reader to set. */
const cases: {
  name: string;
  process: ProcessName;
  env: Record<string, string>;
  named: string[];
  mentions?: string[];
  /** Started as a real process (else checked with loadConfig in this process: the same code, much cheaper). */
  spawn?: boolean;
}[] = [
  {
    name: 'the standalone process on its embedded defaults',
    spawn: true,
    process: 'standalone',
    env: { NODE_ENV: 'production' },
    named: [
      'DOCUMENT_STORE',
      'EVENT_BUS',
      'ANALYTICS_STORE',
      'TOKEN_PRIVATE_KEY',
      'TOKEN_PUBLIC_KEY',
      'LINK_TOKEN_SECRET',
      'INTERNAL_SERVICE_TOKEN',
      'MAIL_TRANSPORT',
    ],
    mentions: ['MONGODB_URL', 'KAFKA_BROKERS', 'CLICKHOUSE_URL', 'SMTP_URL'],
  },
  {
    name: 'a service on the embedded store and the in-process bus',
    spawn: true,
    process: 'content',
    env: without('DOCUMENT_STORE', 'MONGODB_URL', 'EVENT_BUS', 'KAFKA_BROKERS'),
    named: ['DOCUMENT_STORE', 'EVENT_BUS'],
    mentions: ['MONGODB_URL', 'KAFKA_BROKERS'],
  },
  {
    name: 'reporting on in-process ClickHouse (chDB)',
    spawn: true,
    process: 'reporting',
    env: without('ANALYTICS_STORE', 'CLICKHOUSE_URL'),
    named: ['ANALYTICS_STORE'],
    mentions: ['CLICKHOUSE_URL'],
  },
  {
    name: 'the workflows worker without Temporal',
    spawn: true,
    process: 'workflows',
    env: without('TEMPORAL_ADDRESS'),
    named: ['TEMPORAL_ADDRESS'],
  },
  {
    name: 'auth with a signing key it would generate',
    spawn: true,
    process: 'auth',
    env: without('TOKEN_PRIVATE_KEY', 'TOKEN_PUBLIC_KEY'),
    named: ['TOKEN_PRIVATE_KEY', 'TOKEN_PUBLIC_KEY'],
  },
  {
    name: 'auth with a link token secret it would generate',
    process: 'auth',
    env: without('LINK_TOKEN_SECRET'),
    named: ['LINK_TOKEN_SECRET'],
  },
  {
    name: 'a service without the internal credential (a generated secret)',
    process: 'billing',
    env: without('INTERNAL_SERVICE_TOKEN'),
    named: ['INTERNAL_SERVICE_TOKEN'],
  },
  {
    name: 'auth capturing sign-in codes instead of mailing them',
    process: 'auth',
    env: { ...without('SMTP_URL'), MAIL_TRANSPORT: 'capture' },
    named: ['MAIL_TRANSPORT'],
    mentions: ['SMTP_URL'],
  },
  {
    name: 'billing capturing renewal notices instead of mailing them',
    process: 'billing',
    env: { ...without('SMTP_URL'), MAIL_TRANSPORT: 'capture' },
    named: ['MAIL_TRANSPORT'],
    mentions: ['SMTP_URL'],
  },
  {
    name: 'a service sending its events to Kafka in the clear',
    process: 'engagement',
    env: without('KAFKA_SSL'),
    named: ['KAFKA_SSL'],
    mentions: ['KAFKA_ALLOW_PLAINTEXT'],
  },
  {
    name: 'Kafka with SASL but no password',
    process: 'auth',
    env: { ...FULL, KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'nudge' },
    named: ['KAFKA_SASL_PASSWORD'],
  },
  {
    name: 'the worker reaching Temporal in the clear',
    process: 'workflows',
    env: without('TEMPORAL_TLS'),
    named: ['TEMPORAL_TLS'],
    mentions: ['TEMPORAL_API_KEY', 'TEMPORAL_ALLOW_PLAINTEXT'],
  },
  {
    name: 'the distributed test topology switched on in production',
    process: 'content',
    env: { ...FULL, DISTRIBUTED_TEST: 'on' },
    named: ['DISTRIBUTED_TEST'],
  },
  {
    name: 'billing with Razorpay keys but no webhook secret',
    process: 'billing',
    env: { ...FULL, RAZORPAY_KEY_ID: 'rzp_live_x', RAZORPAY_KEY_SECRET: 's', RAZORPAY_PLAN_ID: 'plan_x' },
    named: ['RAZORPAY_WEBHOOK_SECRET'],
  },
];

/** The refusal of a case: from the real process, or from loadConfig with the process's name. */
async function refusal(c: (typeof cases)[number]) {
  if (c.spawn) return run(c.process, c.env);
  const dataDir = mkdtempSync(join(scratch, `${c.process}-`));
  try {
    loadConfig({ ...c.env, DATA_DIR: dataDir }, c.process);
    return { code: 0, stderr: '', dataDir };
  } catch (err) {
    return { code: 1, stderr: (err as Error).message, dataDir };
  }
}

describe('NODE_ENV=production refuses to start', () => {
  // Each spawned case is a cold `node --import tsx` start of a whole service: two at a time on a small machine.
  const runs = new Map<string, ReturnType<typeof refusal>>();
  const queue: Promise<unknown>[] = [Promise.resolve(), Promise.resolve()];
  cases.forEach((c, i) => {
    const lane = i % queue.length;
    const mine = (queue[lane] as Promise<unknown>).then(() => refusal(c));
    queue[lane] = mine.catch(() => undefined);
    runs.set(c.name, mine);
  });

  for (const c of cases) {
    it(`${c.name}, naming ${c.named.join(', ')}`, { timeout: 180_000 }, async () => {
      const { code, stderr, dataDir } = await (runs.get(c.name) as ReturnType<typeof refusal>);
      expect(code, stderr).toBe(1);
      expect(stderr).toContain('Invalid configuration');
      for (const key of c.named) expect(stderr).toMatch(new RegExp(`^\\s+- ${key}: `, 'm'));
      for (const key of c.mentions ?? []) expect(stderr).toContain(key);
      // The message names only what is wrong.
      const flagged = [...stderr.matchAll(/^\s+- ([A-Z_]+): /gm)].map((m) => m[1]);
      expect(new Set(flagged)).toEqual(new Set(c.named));
      // Refused before anything was opened or generated: DATA_DIR stays empty.
      expect(readdirSync(dataDir)).toEqual([]);
    });
  }
});

describe('production configuration', () => {
  it('accepts every process with its engines, keys and secrets set', () => {
    for (const name of Object.keys(PRODUCTION_NEEDS) as ProcessName[])
      expect(() => loadConfig(FULL, name), name).not.toThrow();
  });

  it('gives the link token secret to auth alone: no other process needs it', () => {
    for (const name of Object.keys(PRODUCTION_NEEDS) as ProcessName[]) {
      const check = () => loadConfig(without('LINK_TOKEN_SECRET'), name);
      if (name === 'auth' || name === 'standalone') expect(check, name).toThrow('LINK_TOKEN_SECRET');
      else expect(check, name).not.toThrow();
    }
  });

  it('refuses a link token secret that is short or a PEM key', () => {
    for (const value of [
      's'.repeat(31),
      `-----BEGIN PUBLIC KEY-----\n${'A'.repeat(60)}\n-----END PUBLIC KEY-----`,
    ])
      for (const key of ['LINK_TOKEN_SECRET', 'LINK_TOKEN_SECRET_PREVIOUS'])
        expect(() => loadConfig({ [key]: value }), key).toThrow(key);
    expect(loadConfig({ LINK_TOKEN_SECRET_PREVIOUS: 'p'.repeat(32) }).LINK_TOKEN_SECRET_PREVIOUS).toBe(
      'p'.repeat(32),
    );
  });

  it('reaches Kafka and Temporal in the clear only where the operator says the network is private', () => {
    const plain = without('KAFKA_SSL', 'TEMPORAL_TLS');
    expect(() => loadConfig(plain, 'billing')).toThrow(/KAFKA_SSL[\s\S]*TEMPORAL_TLS/);
    expect(() =>
      loadConfig({ ...plain, KAFKA_ALLOW_PLAINTEXT: 'on', TEMPORAL_ALLOW_PLAINTEXT: 'on' }, 'billing'),
    ).not.toThrow();
    // Temporal Cloud: the API key turns TLS on.
    expect(() =>
      loadConfig({ ...without('TEMPORAL_TLS'), TEMPORAL_API_KEY: 'key' }, 'workflows-bootstrap'),
    ).not.toThrow();
  });

  it('runs the distributed test topology with production checks, less its three substitutions', () => {
    const dataDir = mkdtempSync(join(scratch, 'dist-'));
    const dist = {
      ...without(
        'DOCUMENT_STORE',
        'MONGODB_URL',
        'ANALYTICS_STORE',
        'CLICKHOUSE_URL',
        'MAIL_TRANSPORT',
        'SMTP_URL',
      ),
      NODE_ENV: 'development',
      DISTRIBUTED_TEST: 'on',
      DATA_DIR: dataDir,
    };
    for (const name of Object.keys(PRODUCTION_NEEDS) as ProcessName[])
      expect(() => loadConfig(dist, name), name).not.toThrow();
    // Everything else is production's: Kafka, Temporal, secrets given.
    expect(() => loadConfig({ ...dist, EVENT_BUS: 'inprocess' }, 'content')).toThrow('EVENT_BUS');
    expect(() => loadConfig(without('TEMPORAL_ADDRESS'), 'workflows')).toThrow('TEMPORAL_ADDRESS');
    expect(() => loadConfig({ ...dist, INTERNAL_SERVICE_TOKEN: '' }, 'content')).toThrow(
      'INTERNAL_SERVICE_TOKEN: required when DISTRIBUTED_TEST=on',
    );
  });

  it('checks nothing of the kind outside production', () => {
    for (const name of Object.keys(PRODUCTION_NEEDS) as ProcessName[])
      expect(() => loadConfig({ NODE_ENV: 'development' }, name), name).not.toThrow();
  });

  it('never generates a key or secret under DATA_DIR in production, whoever asks', async () => {
    const dataDir = mkdtempSync(join(scratch, 'keys-'));
    const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir });
    const refusal = (key: string) =>
      expect.objectContaining({
        constructor: ConfigError,
        message: expect.stringContaining(`${key}: required when NODE_ENV=production`),
      });
    await expect(loadInternalToken(config)).rejects.toEqual(refusal('INTERNAL_SERVICE_TOKEN'));
    await expect(loadVerifyKey(config)).rejects.toEqual(refusal('TOKEN_PUBLIC_KEY'));
    await expect(loadSecrets(config)).rejects.toEqual(refusal('TOKEN_PRIVATE_KEY'));
    await expect(loadLinkSecrets(config)).rejects.toEqual(refusal('LINK_TOKEN_SECRET'));
    expect(existsSync(join(dataDir, 'keys'))).toBe(false);
    // The same calls generate them outside production (the embedded topology).
    const dev = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir });
    await expect(loadInternalToken(dev)).resolves.toHaveLength(43);
    expect(existsSync(join(dataDir, 'keys'))).toBe(true);
  });
});
