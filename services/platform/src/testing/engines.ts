// The real engines for a test file: Kafka, the Temporal dev server, the Temporal time-skipping test server.
// A variable already set (KAFKA_BROKERS, TEMPORAL_ADDRESS, TEMPORAL_TEST_SERVER_PATH) points at an engine of the
// developer's own; otherwise the run's engine pool (scripts/engines, vitest globalSetup) installs and starts it on the
// first ask and shares it. Where it cannot be had the suite skips with the reason; under CI=true that fails the file.
import { request } from 'node:http';
import { inject } from 'vitest';

export type EngineName = 'kafka' | 'temporal' | 'temporal-test-server';

/** The variable that carries each engine's address (or path). */
const VARIABLE: Record<EngineName, string> = {
  kafka: 'KAFKA_BROKERS',
  temporal: 'TEMPORAL_ADDRESS',
  'temporal-test-server': 'TEMPORAL_TEST_SERVER_PATH',
};

export type Engine =
  | { available: true; env: Record<string, string> }
  | { available: false; reason: string; env?: undefined };

interface Answer {
  status: number;
  body: { env?: Record<string, string>; reason?: string };
}

/** GET without a timeout: a cold install of an engine can take minutes. */
function ask(url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
        } catch (err) {
          reject(err);
        }
      });
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

function endpoint(): string | undefined {
  try {
    return inject('nudgeEngines');
  } catch {
    return undefined;
  }
}

/**
 * The engine, or why it is not available. Under CI=true an engine that is not available throws, so the test file fails
 * rather than skipping: a green CI run proves the engines ran.
 */
export async function engine(name: EngineName): Promise<Engine> {
  const variable = VARIABLE[name];
  const given = process.env[variable];
  if (given) return { available: true, env: { [variable]: given } };
  const url = endpoint();
  let result: Engine;
  if (!url) result = { available: false, reason: `${variable} is not set and this run has no engine pool` };
  else {
    const { status, body } = await ask(`${url}/${encodeURIComponent(name)}`).catch(
      (err: unknown): Answer => ({
        status: 0,
        body: { reason: `the engine pool did not answer: ${String(err)}` },
      }),
    );
    result =
      status === 200 && body.env
        ? { available: true, env: body.env }
        : { available: false, reason: body.reason ?? `the engine pool answered ${status}` };
  }
  if (!result.available && process.env.CI === 'true')
    throw new Error(`${name} is required under CI=true, and it could not be had: ${result.reason}`);
  return result;
}
