// The Kubernetes manifests (deploy/k8s): every overlay is rendered with `kubectl kustomize` (offline; no cluster),
// every rendered object is validated against the Kubernetes schemas with kubernetes-models, and the rules of the
// deployment are checked on the rendered objects (what a cluster would receive), not on the source files.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_KEYS, loadConfig, type ProcessName } from '@nudge/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { KAFKA_VERSION } from '../scripts/engines/versions';
import type { EnvVar } from '../scripts/topology/manifests';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const k8s = join(root, 'deploy', 'k8s');

/**
 * Configuration keys the manifests use that services/platform/src/config.ts does not have yet. A key leaves this list
 * when the schema gets it; a test below fails as soon as one of them is in the schema, so the list cannot go stale.
 */
const PENDING_KEYS: string[] = [];
/** Entry files being written by the reporting and workflows work; removed from this list like PENDING_KEYS. */
const PENDING_ENTRY_FILES: string[] = [];

/** Each process, its entry file and its role in the NetworkPolicies (app.kubernetes.io/component). */
const PROCESSES: Record<string, { entry: string; component: 'gateway' | 'service' | 'worker' }> = {
  gateway: { entry: 'gateway/src/main.ts', component: 'gateway' },
  auth: { entry: 'services/auth/src/main.ts', component: 'service' },
  content: { entry: 'services/content/src/main.ts', component: 'service' },
  engagement: { entry: 'services/engagement/src/main.ts', component: 'service' },
  billing: { entry: 'services/billing/src/main.ts', component: 'service' },
  reporting: { entry: 'services/reporting/src/main.ts', component: 'service' },
  workflows: { entry: 'workflows/src/main.ts', component: 'worker' },
};
const SETUP_ENTRIES = ['services/reporting/src/migrate.ts', 'workflows/src/bootstrap.ts'];
/** The gateway and the read-heavy services: an autoscaler in production (every process has a PodDisruptionBudget). */
const SCALED = ['gateway', 'content', 'engagement', 'reporting'];
/** The least CPU request of an autoscaled process: its use at rest stays far below 70% of it (README, "Kubernetes"). */
const MIN_SCALED_CPU_MILLICORES = 250;
const ENGINES = [
  'mongodb',
  'kafka',
  'temporal-postgresql',
  'temporal',
  'temporal-ui',
  'clickhouse',
  'mailpit',
];
/** The token key pair is made from PEM files (README), so it is its own Secret, documented in the example's header. */
const TOKEN_SECRET = 'nudge-token-keys';
const TOKEN_KEYS = ['TOKEN_PRIVATE_KEY', 'TOKEN_PUBLIC_KEY'];
const ENV_SECRET = 'nudge-secrets';

// ---------------------------------------------------------------- types of the parts of objects we read

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}
interface EnvFrom {
  configMapRef?: { name: string };
  secretRef?: { name: string };
}
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: EnvFrom[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
  volumes?: { name: string; emptyDir?: object; secret?: { secretName: string } }[];
}
interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: PodSpec;
}

const templateOf = (o: K8sObject) => (o.spec as { template: PodTemplate }).template;
const allContainers = (spec: PodSpec) => [...(spec.initContainers ?? []), ...spec.containers];

// ---------------------------------------------------------------- rendering

const kubectlFound = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
if (!kubectlFound) {
  console.warn(
    'test/k8s.unit.test.ts: kubectl is not installed, so the manifests cannot be rendered: skipped',
  );
}

function kubectl(args: string[], cwd = root): string {
  const run = spawnSync('kubectl', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`kubectl ${args.join(' ')} failed:\n${run.stderr}`);
  return run.stdout;
}

function render(dir: string): K8sObject[] {
  return parseAllDocuments(kubectl(['kustomize', dir]))
    .map((doc) => doc.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

/** An overlay as its user would write it: the production overlay with the optional monitoring component. */
function renderWithMonitoring(scratch: string): K8sObject[] {
  const rel = (p: string) => relative(scratch, join(k8s, p));
  writeFileSync(
    join(scratch, 'kustomization.yaml'),
    [
      'apiVersion: kustomize.config.k8s.io/v1beta1',
      'kind: Kustomization',
      'namespace: nudge',
      `resources: [${rel('overlays/production')}]`,
      `components: [${rel('components/monitoring')}]`,
      '',
    ].join('\n'),
  );
  return render(scratch);
}

// ---------------------------------------------------------------- schema validation (kubernetes-models)

interface Model {
  validate(): void;
}
type ModelClass = new (data: object) => Model;

async function modelClass(apiVersion: string, kind: string): Promise<ModelClass | undefined> {
  const module = apiVersion.startsWith('monitoring.coreos.com/')
    ? `@kubernetes-models/prometheus-operator/${apiVersion}`
    : `kubernetes-models/${apiVersion}`;
  const models = (await import(module)) as Record<string, ModelClass | undefined>;
  return models[kind];
}

async function schemaProblems(objects: K8sObject[]): Promise<string[]> {
  const problems: string[] = [];
  for (const object of objects) {
    const what = `${object.kind}/${object.metadata?.name}`;
    const Class = await modelClass(object.apiVersion, object.kind).catch(() => undefined);
    if (!Class) {
      problems.push(`${what}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Class(structuredClone(object)).validate();
    } catch (err) {
      problems.push(`${what}: ${(err as Error).message}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------- the documented Secret keys

const exampleText = readFileSync(join(k8s, 'secrets.example.env'), 'utf8');
/** KEY=value lines of the example: the keys of Secret nudge-secrets, with their example values. */
const exampleValues = new Map(
  exampleText
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1] as string, m[2] as string]),
);
const documented: Record<string, string[]> = {
  [ENV_SECRET]: [...exampleValues.keys()],
  [TOKEN_SECRET]: TOKEN_KEYS,
};

// ---------------------------------------------------------------- the checks, for each overlay

const ours = (objects: K8sObject[]) =>
  objects.filter(
    (o) => o.kind === 'Deployment' && o.metadata.labels?.['app.kubernetes.io/part-of'] === 'nudge',
  );
const setupJobs = (objects: K8sObject[]) =>
  objects.filter((o) => o.kind === 'Job' && o.metadata.labels?.['app.kubernetes.io/part-of'] === 'nudge');
const named = (objects: K8sObject[], kind: string) =>
  objects.filter((o) => o.kind === kind).map((o) => o.metadata.name);

/** The environment a container would get, with Secret values stood in for by the example's (or 48 characters). */
function resolvedEnv(container: Container, configMaps: K8sObject[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const v of container.env ?? []) {
    const cm = v.valueFrom?.configMapKeyRef;
    const secret = v.valueFrom?.secretKeyRef;
    if (v.value !== undefined) env[v.name] = v.value;
    else if (cm) env[v.name] = configMaps.find((m) => m.metadata.name === cm.name)?.data?.[cm.key] ?? '';
    else if (secret) env[v.name] = exampleValues.get(secret.key) || 'x'.repeat(48);
  }
  return env;
}

const scratch = mkdtempSync(join(tmpdir(), 'nudge-k8s-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(!kubectlFound)('Kubernetes manifests (deploy/k8s)', () => {
  const rendered: Record<string, K8sObject[]> = {};
  beforeAll(() => {
    // The manifests use kustomize v5 features (components, labels): an older kubectl fails here, plainly.
    const kustomize = /Kustomize Version: v(\d+)/.exec(kubectl(['version', '--client']))?.[1];
    if (Number(kustomize ?? 0) < 5)
      throw new Error(`kubectl's kustomize is v${kustomize ?? '?'}; v5 or later is needed`);
    rendered.local = render('deploy/k8s/overlays/local');
    rendered.production = render('deploy/k8s/overlays/production');
    rendered['production + monitoring'] = renderWithMonitoring(scratch);
  });

  it('renders every overlay with a Deployment per process and a Service per process but the worker', () => {
    for (const [overlay, objects] of Object.entries(rendered)) {
      expect(
        ours(objects)
          .map((d) => d.metadata.name)
          .sort(),
        overlay,
      ).toEqual(Object.keys(PROCESSES).sort());
      const services = objects.filter(
        (o) => o.kind === 'Service' && o.metadata.labels?.['app.kubernetes.io/part-of'] === 'nudge',
      );
      expect(services.map((s) => s.metadata.name).sort(), overlay).toEqual(
        Object.keys(PROCESSES)
          .filter((p) => p !== 'workflows')
          .sort(),
      );
      // The setup Job is named after the release's image tag: a new release is a new Job, applied without deleting.
      const tag = (
        ours(objects)[0] ? templateOf(ours(objects)[0] as K8sObject).spec.containers[0]?.image : ''
      )?.split(':')[1];
      expect(tag, overlay).toBeTruthy();
      expect(named(objects, 'Job'), overlay).toEqual([`setup-${tag}`]);
      // Every process keeps all but one pod through a node drain (auth, billing and the worker included).
      expect(named(objects, 'PodDisruptionBudget').sort(), overlay).toEqual(Object.keys(PROCESSES).sort());
      for (const pdb of objects.filter((o) => o.kind === 'PodDisruptionBudget'))
        expect(pdb.spec, `${overlay} ${pdb.metadata.name}`).toMatchObject({ maxUnavailable: 1 });
      expect(named(objects, 'ConfigMap'), overlay).toHaveLength(1);
    }
  });

  it('validates every rendered object against the Kubernetes schemas (kubernetes-models)', {
    timeout: 30_000,
  }, async () => {
    for (const [overlay, objects] of Object.entries(rendered)) {
      expect(await schemaProblems(objects), overlay).toEqual([]);
    }
  });

  it('runs the Kafka version the tests run on in the local overlay', () => {
    const kafka = (rendered.local ?? []).find((o) => o.kind === 'Deployment' && o.metadata.name === 'kafka');
    expect(kafka && templateOf(kafka).spec.containers.map((c) => c.image)).toEqual([
      `apache/kafka:${KAFKA_VERSION}`,
    ]);
  });

  it('has a schema check that refuses a malformed object (so the check above can fail)', async () => {
    const deployment = structuredClone(ours(rendered.production ?? [])[0]) as K8sObject;
    const container = templateOf(deployment).spec.containers[0] as unknown as Record<string, unknown>;
    container.ports = [{ name: 'http', containerPort: 'eighty' }];
    expect((await schemaProblems([deployment]))[0]).toMatch(/containerPort must be integer/);
    expect(
      await schemaProblems([{ apiVersion: 'v1', kind: 'Nonsense', metadata: { name: 'x' } }]),
    ).toHaveLength(1);
  });

  it('runs one image, each process with its own entry file, on the port its probes use', () => {
    for (const [overlay, objects] of Object.entries(rendered)) {
      const images = new Set<string>();
      for (const deployment of ours(objects)) {
        const name = deployment.metadata.name;
        const process = PROCESSES[name];
        const pod = templateOf(deployment);
        const app = pod.spec.containers.find((c) => c.name === 'app');
        expect(app, `${overlay} ${name}: container app`).toBeDefined();
        images.add(app?.image ?? '');
        expect(app?.command, `${overlay} ${name}: command`).toEqual([
          'node',
          '--import',
          'tsx',
          process?.entry,
        ]);
        const port = app?.ports?.find((p) => p.name === 'http')?.containerPort;
        expect(port, `${overlay} ${name}: port http`).toBe(name === 'gateway' ? 8080 : 3000);
        const listens = app?.env?.find(
          (v) => v.name === (name === 'gateway' ? 'PORT' : 'SERVICE_PORT'),
        )?.value;
        expect(listens, `${overlay} ${name}: listens on its http port`).toBe(String(port));
        // /metrics is served on its own port (METRICS_PORT), never on the public http port.
        const metricsPort = app?.ports?.find((p) => p.name === 'metrics')?.containerPort;
        expect(metricsPort, `${overlay} ${name}: port metrics`).toBe(9464);
        expect(app?.env?.find((v) => v.name === 'METRICS_PORT')?.value, `${overlay} ${name}`).toBe('9464');
        expect(pod.metadata?.annotations, `${overlay} ${name}: Prometheus annotations`).toMatchObject({
          'prometheus.io/scrape': 'true',
          'prometheus.io/port': String(metricsPort),
          'prometheus.io/path': '/metrics',
        });
        expect(pod.metadata?.labels?.['app.kubernetes.io/component'], `${overlay} ${name}`).toBe(
          process?.component,
        );
      }
      for (const job of setupJobs(objects)) {
        const containers = allContainers(templateOf(job).spec);
        expect(containers.map((c) => c.command?.[3])).toEqual(SETUP_ENTRIES);
        for (const c of containers) images.add(c.image);
      }
      expect([...images], `${overlay}: one image for every process`).toHaveLength(1);
    }
  });

  it('names entry files that exist, or that are listed as pending', () => {
    for (const entry of [...Object.values(PROCESSES).map((p) => p.entry), ...SETUP_ENTRIES]) {
      const exists = existsSync(join(root, entry));
      const pending = PENDING_ENTRY_FILES.includes(entry);
      expect(exists || pending, `${entry} does not exist`).toBe(true);
      expect(exists && pending, `${entry} exists now: remove it from PENDING_ENTRY_FILES`).toBe(false);
    }
  });

  it('uses only configuration schema keys as environment variable names of our processes', () => {
    const known = new Set<string>([...CONFIG_KEYS, ...PENDING_KEYS]);
    for (const [overlay, objects] of Object.entries(rendered)) {
      for (const workload of [...ours(objects), ...setupJobs(objects)]) {
        for (const container of allContainers(templateOf(workload).spec)) {
          const where = `${overlay} ${workload.metadata.name}/${container.name}`;
          // envFrom would hide names from this check: every variable is listed by name.
          expect(container.envFrom, `${where}: use env, not envFrom`).toBeUndefined();
          const unknown = (container.env ?? []).map((v) => v.name).filter((n) => !known.has(n));
          expect(unknown, `${where}: not keys of configSchema`).toEqual([]);
        }
      }
    }
  });

  it('keeps PENDING_KEYS to names the configuration schema does not have yet', () => {
    const inSchema = PENDING_KEYS.filter((key) => (CONFIG_KEYS as string[]).includes(key));
    expect(inSchema, 'in config.ts now: remove them from PENDING_KEYS').toEqual([]);
  });

  it('reads every setting from a key the rendered ConfigMap has', () => {
    for (const [overlay, objects] of Object.entries(rendered)) {
      const configMaps = objects.filter((o) => o.kind === 'ConfigMap');
      for (const workload of [...ours(objects), ...setupJobs(objects)]) {
        for (const container of allContainers(templateOf(workload).spec)) {
          for (const v of container.env ?? []) {
            const ref = v.valueFrom?.configMapKeyRef;
            if (!ref) continue;
            const map = configMaps.find((m) => m.metadata.name === ref.name);
            expect(map, `${overlay} ${workload.metadata.name}: ConfigMap ${ref.name}`).toBeDefined();
            expect(Object.keys(map?.data ?? {}), `${overlay} ${workload.metadata.name}: ${v.name}`).toContain(
              ref.key,
            );
          }
        }
      }
      for (const map of configMaps) {
        const unknown = Object.keys(map.data ?? {}).filter(
          (k) => !(CONFIG_KEYS as string[]).includes(k) && !PENDING_KEYS.includes(k),
        );
        expect(unknown, `${overlay}: ConfigMap keys that are not configuration keys`).toEqual([]);
      }
    }
  });

  it('gives each process an environment the configuration accepts, production checks included', () => {
    const processOf: Record<string, ProcessName> = {
      'services/reporting/src/migrate.ts': 'reporting-migrate',
      'workflows/src/bootstrap.ts': 'workflows-bootstrap',
    };
    for (const [name, { entry }] of Object.entries(PROCESSES)) processOf[entry] = name as ProcessName;
    for (const [overlay, objects] of Object.entries(rendered)) {
      const configMaps = objects.filter((o) => o.kind === 'ConfigMap');
      for (const workload of [...ours(objects), ...setupJobs(objects)]) {
        for (const container of allContainers(templateOf(workload).spec)) {
          const env = resolvedEnv(container, configMaps);
          const processName = processOf[container.command?.[3] ?? ''];
          expect(processName, `${overlay} ${workload.metadata.name}/${container.name}`).toBeDefined();
          expect(env.NODE_ENV, `${overlay} ${workload.metadata.name}`).toBe('production');
          expect(
            () => loadConfig(env, processName),
            `${overlay} ${workload.metadata.name}/${container.name}: rejected`,
          ).not.toThrow();
        }
      }
    }
  });

  it('refers only to documented Secrets and keys (deploy/k8s/secrets.example.env)', () => {
    expect(exampleValues.size).toBeGreaterThan(0);
    for (const key of TOKEN_KEYS) expect(exampleText, `${key} documented`).toContain(key);
    for (const [overlay, objects] of Object.entries(rendered)) {
      for (const o of objects) {
        const pod =
          o.kind === 'Deployment' || o.kind === 'StatefulSet' || o.kind === 'Job' ? templateOf(o) : null;
        if (!pod) continue;
        for (const container of allContainers(pod.spec)) {
          const where = `${overlay} ${o.metadata.name}/${container.name}`;
          for (const v of container.env ?? []) {
            const ref = v.valueFrom?.secretKeyRef;
            if (!ref) continue;
            expect(Object.keys(documented), `${where}: Secret ${ref.name}`).toContain(ref.name);
            expect(documented[ref.name], `${where}: ${ref.name} key ${ref.key}`).toContain(ref.key);
          }
          for (const from of container.envFrom ?? []) {
            if (from.secretRef) expect(Object.keys(documented), where).toContain(from.secretRef.name);
          }
        }
        for (const volume of pod.spec.volumes ?? []) {
          if (volume.secret)
            expect(Object.keys(documented), o.metadata.name).toContain(volume.secret.secretName);
        }
      }
    }
  });

  it('gives the token signing key and the link secret to auth alone and the public key to every service', () => {
    for (const [overlay, objects] of Object.entries(rendered)) {
      for (const deployment of ours(objects)) {
        const names = templateOf(deployment).spec.containers.flatMap((c) => (c.env ?? []).map((v) => v.name));
        const name = deployment.metadata.name;
        expect(names.includes('TOKEN_PRIVATE_KEY'), `${overlay} ${name}: TOKEN_PRIVATE_KEY`).toBe(
          name === 'auth',
        );
        expect(names.includes('LINK_TOKEN_SECRET'), `${overlay} ${name}: LINK_TOKEN_SECRET`).toBe(
          name === 'auth',
        );
        if (PROCESSES[name]?.component === 'service')
          expect(names, `${overlay} ${name}`).toContain('TOKEN_PUBLIC_KEY');
      }
    }
  });

  it('renders no Secret: credentials are created with kubectl create secret, never committed', () => {
    for (const [overlay, objects] of Object.entries(rendered)) {
      expect(named(objects, 'Secret'), overlay).toEqual([]);
    }
  });

  it('has an example env file kubectl accepts, making exactly the documented Secret', () => {
    const secret = JSON.parse(
      kubectl([
        'create',
        'secret',
        'generic',
        ENV_SECRET,
        '--from-env-file=deploy/k8s/secrets.example.env',
        '--dry-run=client',
        '-o',
        'json',
      ]),
    ) as K8sObject;
    expect(Object.keys(secret.data ?? {}).sort()).toEqual([...exampleValues.keys()].sort());
    // No real credential in the example: secrets are empty, and the URLs name placeholder users and hosts.
    for (const [key, value] of exampleValues) {
      expect(value === '' || /USER:PASSWORD@[a-z.-]*example\.(com|internal)\b/.test(value), key).toBe(true);
    }
  });

  it('has README lines that apply every overlay and create only documented Secret keys', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const overlay of ['local', 'production']) {
      expect(readme).toContain(`kubectl apply -k deploy/k8s/overlays/${overlay}`);
    }
    const created = [...readme.matchAll(/create secret generic ([a-z-]+)/g)].map((m) => m[1]);
    expect(new Set(created)).toEqual(new Set(Object.keys(documented)));
    const keys = [...readme.matchAll(/--from-(?:literal|file)=([A-Z_]+)=/g)].map((m) => m[1] as string);
    expect(keys.length).toBeGreaterThan(0);
    const allDocumented = Object.values(documented).flat();
    expect(keys.filter((k) => !allDocumented.includes(k))).toEqual([]);
  });

  it('gives every process probes, requests and limits, and the restricted security context', () => {
    for (const [overlay, objects] of Object.entries(rendered)) {
      for (const workload of [...ours(objects), ...setupJobs(objects)]) {
        const spec = templateOf(workload).spec;
        const where = `${overlay} ${workload.metadata.name}`;
        expect(spec.securityContext, where).toMatchObject({
          runAsNonRoot: true,
          runAsUser: 1000,
          seccompProfile: { type: 'RuntimeDefault' },
        });
        const tmp = spec.volumes?.find((v) => v.emptyDir && v.name === 'tmp');
        expect(tmp, `${where}: emptyDir tmp`).toBeDefined();
        for (const c of allContainers(spec)) {
          expect(c.securityContext, `${where}/${c.name}`).toMatchObject({
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
          });
          expect(c.securityContext?.capabilities?.drop, `${where}/${c.name}`).toContain('ALL');
          expect(c.volumeMounts, `${where}/${c.name}: /tmp`).toContainEqual({
            name: 'tmp',
            mountPath: '/tmp',
          });
          for (const kind of ['requests', 'limits'] as const) {
            expect(Object.keys(c.resources?.[kind] ?? {}).sort(), `${where}/${c.name} ${kind}`).toEqual([
              'cpu',
              'memory',
            ]);
          }
        }
        if (workload.kind !== 'Deployment') continue;
        for (const c of spec.containers) {
          expect(c.livenessProbe?.httpGet, `${where}: liveness`).toEqual({ path: '/healthz', port: 'http' });
          expect(c.readinessProbe?.httpGet, `${where}: readiness`).toEqual({ path: '/readyz', port: 'http' });
          expect(c.startupProbe?.httpGet, `${where}: startup`).toEqual({ path: '/healthz', port: 'http' });
        }
      }
    }
  });

  it('lets only the gateway, the services and the worker reach a service; the gateway from anywhere', () => {
    for (const [overlay, objects] of Object.entries(rendered)) {
      const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
      const selecting = (component: string) =>
        policies.filter((p) => {
          const selector = (p.spec?.podSelector ?? {}) as { matchLabels?: Record<string, string> };
          const labels = selector.matchLabels ?? {};
          return (
            labels['app.kubernetes.io/part-of'] === 'nudge' ||
            labels['app.kubernetes.io/component'] === component
          );
        });
      // Every pod of ours is selected by the deny-all policy, so what the others allow is all that is allowed.
      const denyAll = policies.find((p) => p.metadata.name === 'default-deny-ingress');
      expect(denyAll?.spec, overlay).toMatchObject({ policyTypes: ['Ingress'] });
      expect(denyAll?.spec?.ingress, overlay).toBeUndefined();
      const serviceRules = selecting('service')
        .filter((p) => p !== denyAll && p.metadata.name !== 'metrics-from-monitoring')
        .flatMap((p) => (p.spec?.ingress ?? []) as { from?: object[] }[]);
      expect(serviceRules, overlay).toEqual([
        {
          from: [
            {
              podSelector: {
                matchExpressions: [
                  {
                    key: 'app.kubernetes.io/component',
                    operator: 'In',
                    values: ['gateway', 'service', 'worker'],
                  },
                ],
              },
            },
          ],
          ports: [{ port: 'http', protocol: 'TCP' }],
        },
      ]);
      const gatewayRules = selecting('gateway')
        .filter((p) => p !== denyAll && p.metadata.name !== 'metrics-from-monitoring')
        .flatMap((p) => (p.spec?.ingress ?? []) as object[]);
      expect(gatewayRules, overlay).toEqual([{ ports: [{ port: 'http', protocol: 'TCP' }] }]);
      const ingresses = objects.filter((o) => o.kind === 'Ingress');
      expect(ingresses, overlay).toHaveLength(1);
      expect(JSON.stringify(ingresses[0]?.spec).match(/"service":\{"name":"[a-z-]+"/g), overlay).toEqual([
        '"service":{"name":"gateway"',
      ]);
    }
  });

  it('local: one replica each, every engine in the cluster, no autoscaler', () => {
    const objects = rendered.local ?? [];
    for (const d of ours(objects))
      expect((d.spec?.replicas as number | undefined) ?? 1, d.metadata.name).toBe(1);
    const workloads = objects.filter((o) => ['Deployment', 'StatefulSet'].includes(o.kind));
    for (const engine of ENGINES) expect(workloads.map((w) => w.metadata.name)).toContain(engine);
    expect(named(objects, 'HorizontalPodAutoscaler')).toEqual([]);
    expect(new Set(objects.map((o) => o.metadata.namespace))).toEqual(new Set(['nudge-local']));
  });

  it('production: autoscalers for the gateway and read-heavy services, several replicas elsewhere, TLS', () => {
    const objects = rendered.production ?? [];
    const hpas = objects.filter((o) => o.kind === 'HorizontalPodAutoscaler');
    expect(
      hpas.map((h) => (h.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name).sort(),
    ).toEqual([...SCALED].sort());
    for (const h of hpas) expect(h.spec?.minReplicas as number).toBeGreaterThanOrEqual(2);
    for (const d of ours(objects)) {
      const replicas = d.spec?.replicas as number | undefined;
      // An autoscaled Deployment sets no replicas, or every apply would reset what the autoscaler chose.
      if (SCALED.includes(d.metadata.name)) expect(replicas, d.metadata.name).toBeUndefined();
      else expect(replicas, d.metadata.name).toBeGreaterThanOrEqual(2);
    }
    const workloads = objects.filter((o) => ['Deployment', 'StatefulSet'].includes(o.kind));
    for (const engine of ENGINES) expect(workloads.map((w) => w.metadata.name)).not.toContain(engine);
    const ingress = objects.find((o) => o.kind === 'Ingress');
    expect(ingress?.metadata.annotations?.['cert-manager.io/cluster-issuer']).toBeTruthy();
    expect(ingress?.spec?.tls).toHaveLength(1);
    expect(new Set(objects.map((o) => o.metadata.namespace))).toEqual(new Set(['nudge']));
  });

  it("lets Prometheus reach every pod's metrics port in every overlay, with or without the monitoring component", () => {
    for (const [overlay, objects] of Object.entries(rendered)) {
      const scrape = objects.find(
        (o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'metrics-from-monitoring',
      );
      expect(scrape?.spec, overlay).toMatchObject({
        podSelector: { matchLabels: { 'app.kubernetes.io/part-of': 'nudge' } },
        ingress: [{ ports: [{ port: 'metrics', protocol: 'TCP' }] }],
      });
    }
  });

  it('requests enough CPU that an autoscaler at 70% scales on load, not on a process at rest', () => {
    // A service at rest (Kafka consumers' fetches and heartbeats, the relay's poll, tsx) uses tens of millicores: a
    // 100m request put it near the 70% target with no traffic at all, and the autoscaler at its maximum.
    const objects = rendered.production ?? [];
    for (const h of objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')) {
      const target = (h.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name;
      const deployment = ours(objects).find((d) => d.metadata.name === target) as K8sObject;
      const cpu = templateOf(deployment).spec.containers[0]?.resources?.requests?.cpu ?? '0';
      const millicores = cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000;
      expect(millicores, target).toBeGreaterThanOrEqual(MIN_SCALED_CPU_MILLICORES);
    }
  });

  it('adds the ServiceMonitor only through the optional monitoring component', () => {
    for (const overlay of ['local', 'production']) {
      expect(named(rendered[overlay] ?? [], 'ServiceMonitor'), overlay).toEqual([]);
    }
    const withMonitoring = rendered['production + monitoring'] ?? [];
    expect(named(withMonitoring, 'ServiceMonitor')).toEqual(['nudge']);
    expect(named(withMonitoring, 'PodMonitor')).toEqual(['nudge-worker']);
    // Prometheus scrapes the metrics port, the one port that answers /metrics; every Service but the worker's has it.
    const monitors = withMonitoring.filter((o) => o.kind === 'ServiceMonitor' || o.kind === 'PodMonitor');
    expect(JSON.stringify(monitors.map((m) => m.spec)).match(/"port":"[a-z]+"/g)).toEqual([
      '"port":"metrics"',
      '"port":"metrics"',
    ]);
    for (const service of withMonitoring.filter(
      (o) => o.kind === 'Service' && o.metadata.labels?.['app.kubernetes.io/part-of'] === 'nudge',
    ))
      expect(
        ((service.spec?.ports ?? []) as { name: string }[]).map((p) => p.name),
        service.metadata.name,
      ).toEqual(['http', 'metrics']);
    const scrape = withMonitoring.find((o) => o.metadata.name === 'metrics-from-monitoring');
    expect(JSON.stringify(scrape?.spec)).toContain('"ports":[{"port":"metrics","protocol":"TCP"}]');
  });
});
