import {
  AdminAddUsersRequest,
  AdminUpdateUserRequest,
  AuthRequest,
  GetAllUsersQuery,
  IdParams,
  IsAuthRequest,
  LinkTokenParams,
  LogoutRequest,
  OtpTransactionRequest,
  RangeExportRequest,
  UnsubscribeParams,
  UpdateNameRequest,
  UpdateRequest,
  VerifyRequest,
} from '@nudge/contracts';
import {
  authenticate,
  type CurrentUser,
  claimsOf,
  forbidden,
  type LinkTokens,
  notSignedIn,
  parseBody,
  parseParams,
  parseQuery,
  requireRole,
  requireUser,
  revokedAt,
  type TokenIssuer,
  type TokenVerifier,
  unauthorized,
} from '@nudge/platform';
import { type Response, Router } from 'express';
import type { createAdminUsers } from '../app/admin-users';
import type { LinkSignIn } from '../app/link-sign-in';
import type { Profile } from '../app/profile';
import type { Sessions } from '../app/sessions';
import type { SignIn } from '../app/sign-in';
import type { UserRepository } from '../app/user-repository';
import { toUserView } from '../domain/user-view';

export interface UserRoutesDeps {
  users: UserRepository;
  signIn: SignIn;
  profile: Profile;
  admin: ReturnType<typeof createAdminUsers>;
  verifier: TokenVerifier;
  tokens: TokenIssuer;
  /** Sign-in and unsubscribe links (HS256 with the link secret, only auth verifies them). */
  links: LinkTokens;
  sessions: Sessions;
  linkSignIn: LinkSignIn;
}

const sendCsv = (res: Response, filename: string, csv: string) => {
  res.setHeader('content-type', 'text/csv; charset=utf-8');
  res.setHeader('content-disposition', `attachment; filename="${filename}"`);
  res.send(csv);
};

/** Every /api/user/* call of reader.md §7 and admin.md §7. */
export function userRoutes(deps: UserRoutesDeps): Router {
  const { users, signIn, profile, admin, verifier } = deps;
  const router = Router();
  // Roles and session revocations are read from the users read model (updated with each append), so a role change
  // applies at once to older tokens and a logged-out token is refused at once. The user read for that is kept on the
  // response (res.locals.signedInUser), so a handler that needs the user (isauth) does not read it a second time.
  router.use(
    authenticate({
      verifier,
      currentUser: async (userId: string, res: Response): Promise<CurrentUser | null> => {
        const user = await users.get(userId);
        res.locals.signedInUser = user;
        return user
          ? { role: user.role, sessionsRevokedBefore: revokedAt(user.sessionsRevokedBefore) }
          : null;
      },
    }),
  );
  const admins = requireRole('admin');

  router.post('/api/user/auth', async (req, res) => {
    const { email } = parseBody(AuthRequest, req);
    res.json(await signIn.requestCode(email, req.ip ?? 'unknown'));
  });

  router.post('/api/user/verify', async (req, res) => {
    const { email, otp, timeZone } = parseBody(VerifyRequest, req);
    const { user, token } = await signIn.verifyCode(email, otp, timeZone);
    res.json({ status: true, user: toUserView(user), token });
  });

  router.post('/api/user/isauth', async (req, res) => {
    parseBody(IsAuthRequest, req);
    if (req.sessionEnded) throw notSignedIn(req);
    if (!req.auth) throw unauthorized('Your session has expired; please sign in again');
    const read = res.locals.signedInUser as Awaited<ReturnType<UserRepository['get']>> | undefined;
    const user = read?._id === req.auth.userId ? read : await users.get(req.auth.userId);
    if (!user) throw unauthorized('Your session has expired; please sign in again');
    // A token signed before a role change carries the old role: hand out a current one.
    const token =
      user.role === req.auth.tokenRole
        ? undefined
        : await deps.tokens.signSession({ userId: user._id, email: user.email, role: user.role });
    res.json({ status: true, user: toUserView(user), ...(token ? { token } : {}) });
  });

  // Sign out: ends every session of the caller on the server (auth.SessionsRevoked), not only this token.
  router.post('/api/user/logout', requireUser, async (req, res) => {
    parseBody(LogoutRequest, req);
    await deps.sessions.revoke(claimsOf(req).userId, 'logout', claimsOf(req).userId);
    res.json({ status: true, message: 'Signed out' });
  });

  router.post('/api/user/update', requireUser, async (req, res) => {
    const { email, info } = parseBody(UpdateRequest, req);
    const claims = claimsOf(req);
    if (email !== claims.email) throw forbidden('You can only update your own profile');
    if (info.email && info.email !== claims.email)
      throw forbidden('The email address cannot be changed here');
    const { email: _ignored, ageConfirmed, ...changes } = info;
    const user = await profile.update(claims.userId, changes, claims.userId, {
      completesProfile: true,
      ageConfirmed: ageConfirmed === true,
    });
    res.json({ status: true, user: toUserView(user) });
  });

  router.post('/api/user/otpTransaction', requireUser, async (req, res) => {
    const { email, phone, stage, otp } = parseBody(OtpTransactionRequest, req);
    const claims = claimsOf(req);
    if (email !== claims.email) throw forbidden('You can only verify a number for your own account');
    res.json(await profile.whatsAppStage(claims.userId, phone, stage, otp, req.ip ?? 'unknown'));
  });

  router.post('/api/user/updatename', requireUser, async (req, res) => {
    const { firstname, lastname } = parseBody(UpdateNameRequest, req);
    const claims = claimsOf(req);
    const user = await profile.update(claims.userId, { firstname, lastname }, claims.userId);
    res.json({ status: true, message: 'Name updated successfully', user: toUserView(user) });
  });

  router.post('/api/user/signinbytoken/:uid', async (req, res) => {
    const { uid } = parseParams(LinkTokenParams, req);
    const session = await deps.linkSignIn.signIn(uid);
    res.json({ status: true, user: toUserView(session.user), token: session.token });
  });

  const unsubscribeUser = async (id: string) => {
    const link = await deps.links.verifyLink(id, 'unsubscribe');
    const user = link && (await users.get(link.userId));
    if (!user) throw unauthorized('This link is not valid or has expired');
    return user;
  };
  const notificationView = (u: { email: string; notiinfo: { time: string; active: boolean } }) => ({
    email: u.email,
    notiinfo: u.notiinfo,
  });

  router.get('/api/user/getnotificationdetails/:id', async (req, res) => {
    const { id } = parseParams(UnsubscribeParams, req);
    res.json({ status: true, user: notificationView(await unsubscribeUser(id)) });
  });

  router.put('/api/user/updatenotificationdetails/:id', async (req, res) => {
    const { id } = parseParams(UnsubscribeParams, req);
    const user = await profile.toggleNotifications((await unsubscribeUser(id))._id);
    res.json({ status: true, user: notificationView(user) });
  });

  /** RFC 8058 one-click unsubscribe: mail clients POST `List-Unsubscribe=One-Click` here; always "off", never a toggle. */
  router.post('/api/user/unsubscribe/:id', async (req, res) => {
    const { id } = parseParams(UnsubscribeParams, req);
    const user = await profile.stopNotifications((await unsubscribeUser(id))._id);
    res.json({ status: true, user: notificationView(user) });
  });

  // Admin (admin.md §7)
  router.get('/api/user/getallusers', admins, async (req, res) => {
    res.json(await admin.list(parseQuery(GetAllUsersQuery, req)));
  });

  router.get('/api/user/getalluserdata', admins, async (_req, res) => {
    sendCsv(res, 'users.csv', await admin.exportAll());
  });

  router.post('/api/user/getpaginationluserdata', admins, async (req, res) => {
    const { from, to } = parseBody(RangeExportRequest, req);
    sendCsv(res, 'users.csv', await admin.exportRange(from, to));
  });

  router.post('/api/user/add', admins, async (req, res) => {
    const { info } = parseBody(AdminAddUsersRequest, req);
    res.json(await admin.add(info, claimsOf(req).userId));
  });

  router.get('/api/user/details/:id', admins, async (req, res) => {
    const { id } = parseParams(IdParams, req);
    res.json(await admin.details(id));
  });

  router.post('/api/user/update/:id', admins, async (req, res) => {
    const { id } = parseParams(IdParams, req);
    const { info } = parseBody(AdminUpdateUserRequest, req);
    res.json(await admin.update(id, info, claimsOf(req).userId));
  });

  router.post('/api/user/revokesessions/:id', admins, async (req, res) => {
    const { id } = parseParams(IdParams, req);
    await deps.sessions.revoke(id, 'admin', claimsOf(req).userId);
    res.json({ status: true, message: 'Every session of this user has ended' });
  });

  return router;
}
