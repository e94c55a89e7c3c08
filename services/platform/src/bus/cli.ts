import { resolve } from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { createLogger } from '../logger';
import { openEventBus, refuseWhileRunning } from '../runtime';
import { countDeadLetters } from './dead-letter';

const USAGE = 'usage: npm run bus -- dead-letters|replay-dead-letters [--group GROUP]';

/**
 * `npm run bus -- dead-letters [--group G]` lists the dead letters; `replay-dead-letters [--group G]` puts them
 * back on their topics for their group (after the handler was fixed) and removes them. With the embedded bus
 * (files under DATA_DIR/bus) only while `npm start` is stopped; the replayed messages are delivered when it starts.
 */
async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  let groupId: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--group' && rest[i + 1]) groupId = rest[++i];
    else throw new ConfigError([`unexpected argument ${rest[i]}`, USAGE]);
  }
  if (command !== 'dead-letters' && command !== 'replay-dead-letters') throw new ConfigError([USAGE]);

  const config = loadConfig();
  if (config.EVENT_BUS === 'inprocess')
    refuseWhileRunning(resolve(config.DATA_DIR), 'stop it first (the embedded bus is its files)');
  const { bus, close } = await openEventBus(config, createLogger('bus-cli', 'warn'));
  try {
    if (command === 'dead-letters') {
      const letters = await bus.deadLetters(groupId);
      for (const letter of letters) {
        const { topic, key } = letter.message;
        console.log(
          `${letter.groupId}  ${topic}@${letter.partition}:${letter.offset}  key ${key}  ${letter.attempts} attempts since ${letter.firstFailedAt}: ${letter.error}`,
        );
      }
      const { total, groups } = countDeadLetters(letters);
      console.log(`${total} dead letter(s)${total > 0 ? ` ${JSON.stringify(groups)}` : ''}`);
      return;
    }
    const replayed = await bus.replayDeadLetters(groupId);
    console.log(
      `${replayed} dead letter(s) put back on their topics${groupId ? ` for ${groupId}` : ''}; ${
        config.EVENT_BUS === 'inprocess'
          ? 'delivered when Nudge starts'
          : 'delivered by the running consumers'
      }.`,
    );
  } finally {
    await close();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.problems.join('\n') : err);
  process.exit(1);
});
