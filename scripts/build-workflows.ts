// Bundles the Temporal workflow code (workflows/src/workflows/index.ts, the bodies of workflows/src/core and the
// OpenTelemetry workflow interceptors) once, at build time, into workflows/dist/workflows-bundle.js: the worker loads
// it (`workflowBundle: { codePath }`) instead of running webpack at every start (seconds of CPU and about 100 MB).
// Run by `npm run build:workflows` (the container image runs it too).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOW_BUNDLE_PATH, workflowInterceptorModules, workflowsPath } from '../workflows/src/worker';

export async function buildWorkflows(path = WORKFLOW_BUNDLE_PATH): Promise<string> {
  const { code } = await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules });
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, code);
  return path;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = await buildWorkflows();
  console.log(`workflow bundle: ${path}`);
}
