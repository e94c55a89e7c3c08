import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_KEYS, loadConfig, type ProcessName } from '@nudge/platform';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { KAFKA_VERSION } from '../scripts/engines/versions';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const composeText = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
const compose = parse(composeText, { merge: true }) as { services?: Record<string, Service> };
const services = Object.entries(compose.services ?? {});
/** Each entry file's process, for its production checks. */
const PROCESS_OF: Record<string, ProcessName> = {
  'gateway/src/main.ts': 'gateway',
  'services/auth/src/main.ts': 'auth',
  'services/content/src/main.ts': 'content',
  'services/engagement/src/main.ts': 'engagement',
  'services/billing/src/main.ts': 'billing',
  'services/reporting/src/main.ts': 'reporting',
  'services/reporting/src/migrate.ts': 'reporting-migrate',
  'workflows/src/main.ts': 'workflows',
  'workflows/src/bootstrap.ts': 'workflows-bootstrap',
};
/** Our processes are built from this folder; everything else is an infrastructure image. */
const OUR_DOCKERFILES = join(root, 'deploy', 'docker');

type KeyValues = Record<string, unknown> | string[];
type Build = string | { context?: string; dockerfile?: string; args?: KeyValues };
type Port = string | number | { target?: number | string; published?: number | string };
interface Service {
  image?: string;
  build?: Build;
  environment?: KeyValues;
  env_file?: unknown;
  depends_on?: string[] | Record<string, unknown>;
  ports?: Port[];
  volumes?: (string | { source?: string; target?: string })[];
}

/** The container paths a service mounts a volume at, each with the volume's name. */
const mounts = (service: Service): Map<string, string> =>
  new Map(
    (service.volumes ?? []).map((v) => {
      if (typeof v !== 'string') return [v.target ?? '', v.source ?? ''];
      const [source = '', target = ''] = v.split(':');
      return [target, source];
    }),
  );

/** environment / args in either compose form: a map, or a list of KEY=value (KEY alone = taken from the shell). */
function keyValues(value: KeyValues | undefined): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  if (Array.isArray(value)) {
    for (const item of value) {
      const at = item.indexOf('=');
      if (at === -1) out.set(item, undefined);
      else out.set(item.slice(0, at), item.slice(at + 1));
    }
  } else if (value) {
    for (const [key, v] of Object.entries(value))
      out.set(key, v === null || v === undefined ? undefined : String(v));
  }
  return out;
}

function buildOf(
  service: Service,
): { context: string; dockerfile: string; args: Map<string, string | undefined> } | undefined {
  const build = service.build;
  if (build === undefined) return undefined;
  const spec = typeof build === 'string' ? { context: build } : build;
  const context = resolve(root, spec.context ?? '.');
  return {
    context,
    dockerfile: resolve(context, spec.dockerfile ?? 'Dockerfile'),
    args: keyValues(spec.args),
  };
}

const isOurs = (service: Service): boolean => {
  const build = buildOf(service);
  return build?.dockerfile.startsWith(OUR_DOCKERFILES + sep) ?? false;
};
const ours = services.filter(([, service]) => isOurs(service));

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}, $$. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (whole, name, op, arg) => {
    if (whole === '$$') return '$';
    const v = env[name as string];
    const unset = op?.startsWith(':') ? !v : v === undefined;
    if (op?.endsWith('-')) return unset ? (arg as string) : (v as string);
    if (op?.endsWith('?') && unset) throw new Error(`required variable ${name} is not set: ${arg}`);
    return v ?? '';
  });
}

/** Names compose insists on (${VAR:?...} / ${VAR?...}): they must come from .env. */
const requiredVariables = [
  ...new Set([...composeText.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*):?\?/g)].map((m) => m[1] as string)),
];

describe('docker-compose.yml', () => {
  it('defines the infrastructure and our processes', () => {
    const names = services.map(([name]) => name);
    for (const name of [
      'mongodb',
      'kafka',
      'temporal',
      'clickhouse',
      'mailpit',
      'gateway',
      'auth',
      'reporting',
    ]) {
      expect(names).toContain(name);
    }
    expect(ours.map(([name]) => name)).toEqual(
      expect.arrayContaining(['gateway', 'auth', 'reporting', 'reporting-migrate', 'workflows']),
    );
  });

  it('runs reporting on the ClickHouse server after its migrations, and routes the gateway to it', () => {
    const byName = Object.fromEntries(services);
    const env = (name: string) =>
      (byName[name] as { environment?: Record<string, unknown> }).environment ?? {};
    expect(env('reporting')).toMatchObject({
      ANALYTICS_STORE: 'clickhouse',
      CLICKHOUSE_URL: 'http://clickhouse:8123',
    });
    expect(env('gateway')).toMatchObject({ REPORTING_URL: 'http://reporting:3000' });
    expect(
      (byName.reporting as { depends_on?: Record<string, { condition: string }> }).depends_on?.[
        'reporting-migrate'
      ],
    ).toEqual({ condition: 'service_completed_successfully' });
  });

  it('runs the workflows worker against the Temporal server, after it is healthy', () => {
    const workflows = services.find(([name]) => name === 'workflows')?.[1] as
      | { environment?: Record<string, string>; depends_on?: Record<string, { condition: string }> }
      | undefined;
    expect(workflows?.environment?.TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(workflows?.depends_on?.temporal?.condition).toBe('service_healthy');
  });

  it('runs the Kafka version the tests run on', () => {
    const kafka = services.find(([name]) => name === 'kafka')?.[1];
    expect(kafka?.image).toBe(`apache/kafka:${KAFKA_VERSION}`);
  });

  it('gives every service an image or a build', () => {
    for (const [name, service] of services) {
      expect(
        Boolean(service.image) || service.build !== undefined,
        `${name} has neither image nor build`,
      ).toBe(true);
    }
  });

  it('points every build at an existing context and Dockerfile', () => {
    for (const [name, service] of services) {
      const build = buildOf(service);
      if (!build) continue;
      expect(
        existsSync(build.context) && statSync(build.context).isDirectory(),
        `${name}: build context ${build.context}`,
      ).toBe(true);
      expect(
        existsSync(build.dockerfile) && statSync(build.dockerfile).isFile(),
        `${name}: Dockerfile ${build.dockerfile}`,
      ).toBe(true);
    }
  });

  it('selects an existing entry file with the APP build argument of each of our processes', () => {
    for (const [name, service] of ours) {
      const build = buildOf(service);
      const app = build?.args.get('APP');
      expect(app, `${name}: build argument APP`).toBeTruthy();
      const entry = resolve(build?.context ?? root, app ?? '');
      expect(
        existsSync(entry) && statSync(entry).isFile(),
        `${name}: APP=${app} is not a file in the build context`,
      ).toBe(true);
    }
  });

  it('uses only configuration schema keys as environment variable names of our processes', () => {
    const known = new Set<string>(CONFIG_KEYS);
    for (const [name, service] of ours) {
      // An env_file would hide names from this check; our processes list every variable explicitly.
      expect(service.env_file, `${name}: use environment, not env_file`).toBeUndefined();
      const unknown = [...keyValues(service.environment).keys()].filter((key) => !known.has(key));
      expect(unknown, `${name}: environment variables that are not keys of configSchema`).toEqual([]);
    }
  });

  it('gives each of our processes an environment the configuration schema accepts', () => {
    // Stand-in values for what .env must provide; every other ${...} takes its default.
    const dotenv = Object.fromEntries(requiredVariables.map((v) => [v, 'x'.repeat(48)]));
    for (const [name, service] of ours) {
      const env: Record<string, string> = {};
      for (const [key, value] of keyValues(service.environment)) {
        if (value !== undefined) env[key] = interpolate(value, dotenv);
      }
      const entry = buildOf(service)?.args.get('APP') ?? '';
      expect(() => loadConfig(env, PROCESS_OF[entry]), `${name}: configuration rejected`).not.toThrow();
    }
  });

  it("keeps each process's DATA_DIR on a volume mounted at the image's data folder, which its user owns", () => {
    // The image runs as uid 1000 and creates /app/data for it; a new named volume mounted there takes that owner,
    // while one mounted at a path the image lacks is root's, and the process could not write (reporting's intake
    // spool: reporting would restart forever, and the gateway that waits on it never serve 8080).
    const dockerfile = readFileSync(join(OUR_DOCKERFILES, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/mkdir -p \/app\/data && chown node:node \/app\/data/);
    expect(dockerfile).toMatch(/^USER node$/m);
    let withData = 0;
    for (const [name, service] of ours) {
      const dataDir = keyValues(service.environment).get('DATA_DIR');
      for (const [target] of mounts(service))
        expect(target, `${name}: a volume outside /app/data is not writable by the image's user`).toBe(
          '/app/data',
        );
      if (dataDir === undefined) continue;
      withData++;
      expect(dataDir, `${name}: DATA_DIR`).toBe('/app/data');
      expect(mounts(service).has('/app/data'), `${name}: DATA_DIR on a volume`).toBe(true);
    }
    expect(withData).toBeGreaterThan(0);
  });

  it("keeps Kafka's log (acknowledged events, the groups' offsets) on a volume across down and up", () => {
    const kafka = compose.services?.kafka as Service;
    const logDirs = keyValues(kafka.environment).get('KAFKA_LOG_DIRS') ?? '';
    expect(logDirs).not.toBe('');
    expect(mounts(kafka).get(logDirs), 'a named volume at KAFKA_LOG_DIRS').toMatch(/^[a-z][a-z0-9-]*$/);
  });

  it('names only defined services in depends_on', () => {
    const defined = new Set(services.map(([name]) => name));
    for (const [name, service] of services) {
      const deps = Array.isArray(service.depends_on)
        ? service.depends_on
        : Object.keys(service.depends_on ?? {});
      for (const dep of deps)
        expect(defined.has(dep), `${name} depends on undefined service ${dep}`).toBe(true);
    }
  });

  it('publishes the gateway on 8080, on the port it listens on', () => {
    const gateway = compose.services?.gateway;
    expect(gateway).toBeDefined();
    const listens = keyValues(gateway?.environment).get('PORT') ?? '8080';
    const mappings = (gateway?.ports ?? []).map((port) => {
      if (typeof port === 'object') return { published: String(port.published), target: String(port.target) };
      const parts = String(port).split('/')[0]?.split(':') ?? [];
      return {
        published: parts.length > 1 ? parts[parts.length - 2] : undefined,
        target: parts[parts.length - 1],
      };
    });
    expect(mappings).toContainEqual({ published: '8080', target: listens });
  });

  it('lists in .env.example every variable compose requires from .env', () => {
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    expect(requiredVariables.length).toBeGreaterThan(0);
    for (const variable of requiredVariables) {
      expect(new RegExp(`\\b${variable}\\b`).test(example), `${variable} missing from .env.example`).toBe(
        true,
      );
    }
  });

  it('commits no secret: every key, token and password comes from .env', () => {
    for (const [name, service] of services) {
      for (const [key, value] of keyValues(service.environment)) {
        if (!/(PRIVATE_KEY|PUBLIC_KEY|SECRET|TOKEN|PASSWORD|PWD)$/.test(key)) continue;
        expect(
          value === undefined || /^\$\{[A-Za-z0-9_]+(:?[-?][^}]*)?\}$/.test(value),
          `${name}.${key} is a literal`,
        ).toBe(true);
      }
    }
  });
});
