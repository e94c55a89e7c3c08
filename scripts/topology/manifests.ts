// The container topology as the Kubernetes base declares it (deploy/k8s/base): each process's entry command and its
// environment, read from the manifests themselves (the Deployments, the pod defaults patched onto every Deployment,
// the setup Job's containers and the ConfigMap's config.env), so the distributed tier starts exactly what a cluster
// would run. Read with the yaml library, not `kubectl kustomize`: the tier must not depend on kubectl being installed.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BASE = join(ROOT, 'deploy', 'k8s', 'base');

/** The long-running processes of the topology, in the order they are started (the gateway last). */
export const SERVICES = ['auth', 'content', 'engagement', 'billing', 'reporting'] as const;
export type ServiceName = (typeof SERVICES)[number];
export const PROCESSES = [...SERVICES, 'workflows', 'gateway'] as const;
export type ProcessName = (typeof PROCESSES)[number];

export interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { configMapKeyRef?: KeyRef; secretKeyRef?: KeyRef };
}
interface Container {
  name: string;
  command: string[];
  env?: EnvVar[];
}

/** One container of the manifests: its command and its environment, each variable as declared. */
export interface ManifestContainer {
  /** The Deployment's name, or `setup/<container>` for the setup Job's steps. */
  name: string;
  command: string[];
  env: EnvVar[];
}

/** KEY=value lines of a kustomize env file (comments and blank lines skipped). */
export function readEnvFile(path: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const at = trimmed.indexOf('=');
    if (at > 0) out[trimmed.slice(0, at)] = trimmed.slice(at + 1);
  }
  return out;
}

/** Strategic merge of env lists by name, as kustomize applies a patch: the patch's entry wins. */
function mergeEnv(own: EnvVar[], patch: EnvVar[]): EnvVar[] {
  const byName = new Map(own.map((e) => [e.name, e]));
  for (const e of patch) byName.set(e.name, e);
  return [...byName.values()];
}

/** The Deployments' `app` containers (with the pod defaults' env) and the setup Job's steps, in run order. */
export function readManifests(): {
  processes: Record<ProcessName, ManifestContainer>;
  setup: ManifestContainer[];
} {
  const kustomization = parse(readFileSync(join(BASE, 'kustomization.yaml'), 'utf8')) as {
    resources: string[];
  };
  const defaults = parse(readFileSync(join(BASE, 'pod-defaults.yaml'), 'utf8'));
  const defaultEnv: EnvVar[] = defaults.spec.template.spec.containers[0].env;
  const processes: Partial<Record<ProcessName, ManifestContainer>> = {};
  const setup: ManifestContainer[] = [];
  for (const file of kustomization.resources) {
    for (const doc of parseAllDocuments(readFileSync(join(BASE, file), 'utf8'))) {
      const object = doc.toJS() as {
        kind?: string;
        metadata?: { name: string };
        spec?: { template?: { spec?: { containers?: Container[]; initContainers?: Container[] } } };
      } | null;
      const pod = object?.spec?.template?.spec;
      if (!object?.metadata || !pod) continue;
      if (object.kind === 'Deployment') {
        const app = pod.containers?.find((c) => c.name === 'app');
        if (!app) throw new Error(`${file}: Deployment ${object.metadata.name} has no container named app`);
        const name = object.metadata.name as ProcessName;
        if (!PROCESSES.includes(name))
          throw new Error(`${file}: Deployment ${name} is not a process of the topology`);
        processes[name] = { name, command: app.command, env: mergeEnv(app.env ?? [], defaultEnv) };
      } else if (object.kind === 'Job' && object.metadata.name === 'setup') {
        for (const c of [...(pod.initContainers ?? []), ...(pod.containers ?? [])])
          setup.push({ name: `setup/${c.name}`, command: c.command, env: c.env ?? [] });
      }
    }
  }
  for (const name of PROCESSES)
    if (!processes[name]) throw new Error(`deploy/k8s/base has no Deployment ${name}`);
  return { processes: processes as Record<ProcessName, ManifestContainer>, setup };
}

/** The base ConfigMap's settings (deploy/k8s/base/config.env). */
export const baseConfig = () => readEnvFile(join(BASE, 'config.env'));

/**
 * A container's environment with its ConfigMap and Secret references resolved from `config` and `secrets`. A
 * reference to a key that neither has is left out when it is optional, and an error otherwise: the manifests must
 * not name a setting the topology cannot give.
 */
export function resolveEnv(
  container: ManifestContainer,
  config: Record<string, string>,
  secrets: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of container.env) {
    if (e.value !== undefined) env[e.name] = e.value;
    const ref = e.valueFrom?.configMapKeyRef ?? e.valueFrom?.secretKeyRef;
    if (!ref) continue;
    const from = e.valueFrom?.configMapKeyRef ? config : secrets;
    const value = from[ref.key];
    if (value !== undefined) env[e.name] = value;
    else if (!ref.optional)
      throw new Error(`${container.name}: ${e.name} refers to ${ref.name}/${ref.key}, unset`);
  }
  return env;
}
