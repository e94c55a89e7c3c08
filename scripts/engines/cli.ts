// npm run engines -- install [kafka|temporal|temporal-test-server ...]   fetch them into the cache (all by default)
// npm run engines -- start [kafka|temporal ...]                         run them here until Ctrl-C (both by default)
// npm run engines -- status                                             the cache folder and what it holds
import { type Installable, install, installedMarker, isInstalled, sweepPartials } from './install';
import { startKafka } from './kafka';
import { startTemporal, temporalTestServerPath } from './temporal';
import { enginesDir } from './versions';

const ALL: Installable[] = ['kafka', 'temporal', 'temporal-test-server'];

function names(args: string[], allowed: Installable[]): Installable[] {
  if (args.length === 0) return allowed;
  for (const a of args)
    if (!allowed.includes(a as Installable))
      throw new Error(`unknown engine '${a}': one of ${allowed.join(', ')}`);
  return args as Installable[];
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'install') {
    await sweepPartials(enginesDir());
    for (const name of names(rest, ALL)) {
      const result = await install(name);
      console.log(
        result.installed
          ? `${name}: installed in ${(result.ms / 1000).toFixed(1)} s: ${result.home}`
          : `${name}: already installed: ${result.home}`,
      );
    }
    return;
  }
  if (command === 'status') {
    console.log(`cache: ${enginesDir()} (NUDGE_ENGINES_DIR overrides it)`);
    for (const name of ALL)
      console.log(`${name}: ${isInstalled(name) ? installedMarker(name) : 'not installed'}`);
    return;
  }
  if (command === 'start') {
    const wanted = names(rest, ['kafka', 'temporal']);
    const stops: Array<() => Promise<void>> = [];
    const stopAll = async () => {
      for (const stop of stops.reverse()) await stop();
      process.exit(0);
    };
    process.once('SIGINT', stopAll);
    process.once('SIGTERM', stopAll);
    for (const name of wanted) {
      const from = Date.now();
      if (name === 'kafka') {
        const broker = await startKafka();
        stops.push(() => broker.stop());
        console.log(
          `export KAFKA_BROKERS=${broker.brokers.join(',')}   # Kafka ${broker.version}, ${broker.dir}`,
        );
      } else {
        const server = await startTemporal();
        stops.push(() => server.stop());
        console.log(
          `export TEMPORAL_ADDRESS=${server.address}   # Temporal dev server ${server.version}, ${server.dir}`,
        );
        console.log(`export TEMPORAL_TEST_SERVER_PATH=${await temporalTestServerPath()}`);
      }
      console.error(`${name}: ready in ${((Date.now() - from) / 1000).toFixed(1)} s`);
    }
    console.error('running; Ctrl-C stops them and deletes their data');
    return;
  }
  throw new Error('usage: npm run engines -- install|start|status [engine ...]');
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
