import {
  createHttpApp,
  createLinkTokens,
  createTokenIssuer,
  createTokenVerifier,
  createWindowLimiter,
  type DevOutbox,
  type DocumentStore,
  type EmailStatsReader,
  type EventHandler,
  finishApp,
  keyringOf,
  type LinkSecrets,
  type Logger,
  type MailSender,
  type ServiceEventStore,
  type SigningKeys,
  tokenFrom,
  type WhatsAppSender,
} from '@nudge/platform';
import type { Express } from 'express';
import { createAdminUsers } from './app/admin-users';
import { createDueReaders } from './app/due-readers';
import { createErasure, createErasureProjection } from './app/erasure';
import { createGoogleSignIn } from './app/google-sign-in';
import { createLinkSignIn } from './app/link-sign-in';
import { createOneTimeCodes } from './app/one-time-codes';
import { createProfile } from './app/profile';
import { createSessions } from './app/sessions';
import { createSignIn } from './app/sign-in';
import { createUserRepository } from './app/user-repository';
import { decideRoleChange } from './domain/user';
import { createBillingHandlers } from './events/billing-consumer';
import { createReminderHandlers, resetUnopened } from './events/reminder-consumer';
import { createUsersProjection } from './events/users-projection';
import { eraseRoutes } from './http/erase-routes';
import { eventHistoryRoutes } from './http/event-history-routes';
import { type GoogleSignInOptions, googleRoutes } from './http/google-routes';
import { internalRoutes } from './http/internal-routes';
import { userRoutes } from './http/user-routes';

export interface AuthServiceDeps {
  store: DocumentStore;
  events: ServiceEventStore;
  mail: MailSender;
  whatsapp: WhatsAppSender;
  keys: SigningKeys;
  /** The secret of e-mail link tokens (HS256; only auth signs and verifies links). */
  linkSecrets: LinkSecrets;
  /** The credential other services present on /internal calls. */
  internalToken: string;
  /** Keys the HMAC of stored one-time codes. */
  codeSecret: string;
  log: Logger;
  publicUrl: string;
  adminEmails: string[];
  sessionTtlDays: number;
  bodyLimit: string;
  /** TRUSTED_PROXIES: the gateway's addresses, whose X-Forwarded-For gives the client IP. Default loopback. */
  trustedProxies?: string[];
  codeLimitPerHour: number;
  codeIpLimitPerHour: number;
  /** WhatsApp codes per destination number and per client IP an hour (per account: codeLimitPerHour). */
  whatsAppNumberLimitPerHour?: number;
  whatsAppIpLimitPerHour?: number;
  /** Google sign-in (OpenID Connect); absent = /auth/google answers that it is not configured. */
  google?: Pick<GoogleSignInOptions, 'clientId' | 'clientSecret' | 'issuer' | 'allowInsecureIssuer'>;
  redirectAllowlist: string[];
  siteName?: string;
  /** The capture outbox (embedded topology): a deleted reader's messages are erased from it. */
  outbox?: DevOutbox;
  /** Reporting's e-mail figures for the admin views; absent = zeros. */
  emailStats?: EmailStatsReader;
  /** Consecutive unopened reminder e-mails that make a reader cold (REMINDER_COLD_AFTER). */
  coldAfter?: number;
  clock?: () => Date;
}

export interface AuthService {
  app: Express;
  /** Indexes, projection catch-up, ADMIN_EMAILS promotion. Call once before serving. */
  start(): Promise<void>;
  /** Role follows payment: handlers for a consumer on topicFor('billing') (group 'auth'), started after start(). */
  billingHandlers: Record<string, EventHandler>;
  /** Cold / autoactive from engagement's reminder facts: handlers for a consumer on topicFor('engagement'). */
  reminderHandlers: Record<string, EventHandler>;
}

const HOUR = 3600_000;

/** The auth service's composition: use cases, routes and read models over the ports it is given. */
export function createAuthService(deps: AuthServiceDeps): AuthService {
  const siteName = deps.siteName ?? 'Nudge';
  const projection = createUsersProjection(deps.store);
  deps.events.register(projection);
  deps.events.register(createErasureProjection(deps.store, keyringOf(deps.store)));
  const users = createUserRepository(deps.store, deps.events);
  const codes = createOneTimeCodes(deps.store, deps.codeSecret, deps.clock);
  const tokens = createTokenIssuer(deps.keys.privateKey, deps.sessionTtlDays);
  const verifier = createTokenVerifier(deps.keys.publicKey);
  const links = createLinkTokens({ secrets: deps.linkSecrets, publicKey: deps.keys.publicKey });
  const limiter = (name: string, limit: number) =>
    createWindowLimiter(deps.store, name, {
      limit,
      windowMs: HOUR,
      ...(deps.clock ? { clock: deps.clock } : {}),
    });
  const signIn = createSignIn({
    users,
    codes,
    mail: deps.mail,
    tokens,
    perEmail: limiter('code_email', deps.codeLimitPerHour),
    perIp: limiter('code_ip', deps.codeIpLimitPerHour),
    adminEmails: deps.adminEmails,
    siteName,
    resetUnopened: (userId) => resetUnopened(deps.store, userId),
  });
  const profile = createProfile({
    users,
    codes,
    whatsapp: deps.whatsapp,
    perAccount: limiter('code_whatsapp', deps.codeLimitPerHour),
    perNumber: limiter('code_whatsapp_number', deps.whatsAppNumberLimitPerHour ?? 5),
    perIp: limiter('code_whatsapp_ip', deps.whatsAppIpLimitPerHour ?? 10),
    siteName,
  });
  const admin = createAdminUsers(users, deps.emailStats);

  const app = createHttpApp({
    log: deps.log,
    bodyLimit: deps.bodyLimit,
    ...(deps.trustedProxies ? { trustProxy: deps.trustedProxies } : {}),
  });
  const sessions = createSessions(users, verifier);
  const linkSignIn = createLinkSignIn({
    store: deps.store,
    users,
    links,
    signIn,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  app.use(userRoutes({ users, signIn, linkSignIn, profile, admin, verifier, tokens, links, sessions }));
  app.use(
    eraseRoutes(
      createErasure({
        store: deps.store,
        events: deps.events,
        users,
        ...(deps.outbox ? { outbox: deps.outbox } : {}),
        ...(deps.clock ? { clock: deps.clock } : {}),
      }),
    ),
  );
  app.use(
    googleRoutes({
      ...(deps.google ?? {}),
      publicUrl: deps.publicUrl,
      redirectAllowlist: deps.redirectAllowlist,
      store: deps.store,
      signInWithGoogle: createGoogleSignIn({ users, profile, links }),
      signOut: (req) => sessions.signOut(tokenFrom(req)),
      log: deps.log,
    }),
  );
  app.use(
    internalRoutes({
      users,
      links,
      signIn,
      internalToken: deps.internalToken,
      publicUrl: deps.publicUrl,
      dueReaders: createDueReaders(deps.store),
    }),
  );
  app.use(eventHistoryRoutes({ store: deps.store, internalToken: deps.internalToken }));
  finishApp(app, deps.log);

  return {
    app,
    billingHandlers: createBillingHandlers({ store: deps.store, users }),
    reminderHandlers: createReminderHandlers({ store: deps.store, users, coldAfter: deps.coldAfter ?? 14 }),
    async start() {
      await projection.ensureIndexes();
      await linkSignIn.ensureIndexes();
      await deps.events.catchUp();
      await projection.sweepTimeZones();
      await promoteAdmins(users, deps.adminEmails);
    },
  };
}

/** ADMIN_EMAILS that already belong to users become admins at start (new ones on their first sign-in). */
async function promoteAdmins(users: ReturnType<typeof createUserRepository>, emails: string[]) {
  for (const email of emails) {
    const user = await users.byEmail(email);
    if (user && user.role !== 'admin') {
      await users.update(user._id, (current) => decideRoleChange(current, 'admin', 'ADMIN_EMAILS'), 'system');
    }
  }
}
