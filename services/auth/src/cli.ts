import { join, resolve } from 'node:path';
import { Email } from '@nudge/contracts';
import {
  ConfigError,
  createDocumentStore,
  createEventStore,
  createLogger,
  keyringFor,
  loadConfig,
  refuseWhileRunning,
} from '@nudge/platform';
import { createUserRepository } from './app/user-repository';
import { decideRoleChange } from './domain/user';
import { createUsersProjection } from './events/users-projection';

const USAGE = 'usage: npm run admin -- create EMAIL';

/** `npm run admin -- create EMAIL`: makes (or promotes) an admin. Its events reach the bus on the service's next start. */
async function main(argv: string[]) {
  const [command, rawEmail] = argv;
  if (command !== 'create' || !rawEmail) throw new ConfigError([USAGE]);
  const parsed = Email.safeParse(rawEmail);
  if (!parsed.success) throw new ConfigError([`${rawEmail} is not a valid email`]);
  const email = parsed.data;

  const config = loadConfig();
  const dataDir = resolve(config.DATA_DIR);
  if (config.DOCUMENT_STORE === 'embedded')
    refuseWhileRunning(dataDir, 'stop it first, or add the e-mail to ADMIN_EMAILS and restart it');

  const log = createLogger('admin-cli', 'warn');
  const store = await createDocumentStore({
    kind: config.DOCUMENT_STORE,
    dir: join(dataDir, 'auth'),
    ...(config.MONGODB_URL ? { mongoUrl: config.MONGODB_URL } : {}),
    dbName: `${config.MONGODB_DB_PREFIX}_auth`,
  });
  const events = createEventStore({
    store,
    service: 'auth',
    log,
    keyring: await keyringFor({ ...config, DATA_DIR: dataDir }),
  });
  events.register(createUsersProjection(store));
  try {
    await events.catchUp();
    const users = createUserRepository(store, events);
    const { user, created } = await users.findOrRegister({ email, source: 'admin' }, 'system');
    const updated =
      (await users.update(
        user._id,
        (current) => decideRoleChange(current, 'admin', 'admin command'),
        'system',
      )) ?? user;
    console.log(
      `${updated.email} is ${created ? 'a new admin' : user.role === 'admin' ? 'already an admin' : 'now an admin'}; they sign in with a code sent to that address.`,
    );
  } finally {
    events.close();
    await store.close();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.problems.join('\n') : err);
  process.exit(1);
});
