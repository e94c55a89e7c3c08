import {
  DuePagesRequest,
  DueReadersRequest,
  IdParams,
  LinkSessionRequest,
  MintLinksRequest,
  MintRequest,
} from '@nudge/contracts';
import {
  answerJson,
  gone,
  type LinkTokens,
  notFound,
  parseBody,
  parseParams,
  requireInternal,
} from '@nudge/platform';
import { Router } from 'express';
import type { DueReaders } from '../app/due-readers';
import { linkEnded } from '../app/link-sign-in';
import type { SignIn } from '../app/sign-in';
import type { UserRepository } from '../app/user-repository';
import { toUserView } from '../domain/user-view';

/** Link lifetimes: a reminder's sign-in link lasts a week; an unsubscribe link a year (old e-mails must still work). */
export const SIGNIN_LINK_TTL_S = 7 * 24 * 3600;
export const UNSUBSCRIBE_LINK_TTL_S = 365 * 24 * 3600;

/**
 * Only auth signs tokens. Other services (the reminder sender, engagement's check-in answers) ask for them here.
 * Never routed by the gateway, and refused without the internal service credential.
 */
export function internalRoutes(deps: {
  users: UserRepository;
  links: LinkTokens;
  signIn: SignIn;
  internalToken: string;
  publicUrl: string;
  dueReaders: DueReaders;
}): Router {
  const router = Router();
  router.use('/internal', requireInternal(deps.internalToken));

  const loadUser = async (userId: string) => {
    const user = await deps.users.get(userId);
    if (!user) throw notFound('User not found');
    return user;
  };
  const base = deps.publicUrl.replace(/\/$/, '');

  router.post('/internal/tokens/signin-link', async (req, res) => {
    const user = await loadUser(parseBody(MintRequest, req).userId);
    const token = deps.links.signLink(user._id, 'signin', SIGNIN_LINK_TTL_S);
    answerJson(res, { status: true, token, url: `${base}/?uid=${encodeURIComponent(token)}` });
  });

  router.post('/internal/tokens/unsubscribe', async (req, res) => {
    const user = await loadUser(parseBody(MintRequest, req).userId);
    const token = deps.links.signLink(user._id, 'unsubscribe', UNSUBSCRIBE_LINK_TTL_S);
    answerJson(res, { status: true, token, url: `${base}/unsubscribe/${encodeURIComponent(token)}` });
  });

  /**
   * A session for a user who proved themselves with an e-mailed link (engagement: a check-in answer link), unless the
   * link was sent before the user's sessions were ended (410).
   */
  router.post('/internal/tokens/session', async (req, res) => {
    const { userId, linkIssuedAt } = parseBody(LinkSessionRequest, req);
    const user = await loadUser(userId);
    if (linkEnded(Date.parse(linkIssuedAt), user))
      throw gone('This link was sent before the user signed out');
    const session = await deps.signIn.completeSignIn(user, 'checkin');
    answerJson(res, { status: true, token: session.token, user: toUserView(session.user) });
  });

  /** The reminder sender: the readers due at a slot instant, paged (a batch per page). */
  router.post('/internal/reminders/due', async (req, res) => {
    const { at, cursor, until, limit } = parseBody(DueReadersRequest, req);
    answerJson(res, { status: true, ...(await deps.dueReaders.page(new Date(at), cursor, limit, until)) });
  });

  /** The reminder sender: a slot's due readers cut into pages, so they can be sent in parallel. */
  router.post('/internal/reminders/due-pages', async (req, res) => {
    const { at, cursor, size, pages } = parseBody(DuePagesRequest, req);
    answerJson(res, { status: true, ...(await deps.dueReaders.pages(new Date(at), cursor, size, pages)) });
  });

  /** Sign-in and unsubscribe link tokens for a batch of users, in one call (HMACs, a few microseconds each). */
  router.post('/internal/tokens/links', async (req, res) => {
    const { userIds } = parseBody(MintLinksRequest, req);
    const known = await deps.users.many([...new Set(userIds)]);
    const tokens = deps.links.signLinks(
      known.flatMap((user) => [
        { userId: user._id, purpose: 'signin' as const, ttlSeconds: SIGNIN_LINK_TTL_S },
        { userId: user._id, purpose: 'unsubscribe' as const, ttlSeconds: UNSUBSCRIBE_LINK_TTL_S },
      ]),
    );
    const links: Record<string, { signin: string; unsubscribe: string }> = {};
    for (const [i, user] of known.entries())
      links[user._id] = { signin: tokens[2 * i] as string, unsubscribe: tokens[2 * i + 1] as string };
    answerJson(res, { status: true, links });
  });

  router.get('/internal/users/:id', async (req, res) => {
    const user = await loadUser(parseParams(IdParams, req).id);
    res.json({ status: true, user: toUserView(user) });
  });

  return router;
}
