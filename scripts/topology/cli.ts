// npm run topology   the container topology on this machine, every process its own OS process (scripts/topology),
//                    on the Kafka and Temporal that KAFKA_BROKERS and TEMPORAL_ADDRESS name (`npm run engines -- start`
//                    prints them); Ctrl-C stops it and deletes its folder.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTopology } from './launcher';

async function main() {
  const brokers = process.env.KAFKA_BROKERS;
  const temporal = process.env.TEMPORAL_ADDRESS;
  if (!brokers || !temporal)
    throw new Error(
      'set KAFKA_BROKERS and TEMPORAL_ADDRESS: `npm run engines -- start` in another terminal prints both',
    );
  const dir = await mkdtemp(join(tmpdir(), 'nudge-topology-'));
  const from = Date.now();
  const topology = await startTopology({
    dir,
    kafkaBrokers: brokers.split(','),
    temporalAddress: temporal,
    config: { ...(process.env.ADMIN_EMAILS ? { ADMIN_EMAILS: process.env.ADMIN_EMAILS } : {}) },
  });
  console.log(`ready in ${((Date.now() - from) / 1000).toFixed(1)} s: ${topology.url}`);
  console.log(`each process's data and log: ${dir} (sign-in codes: ${join(dir, 'auth', 'outbox')})`);
  const stop = async () => {
    await topology.close();
    await rm(dir, { recursive: true, force: true });
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
