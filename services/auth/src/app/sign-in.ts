import { AuthEvents } from '@nudge/contracts';
import {
  badRequest,
  type MailSender,
  type TokenIssuer,
  tooManyRequests,
  type WindowLimiter,
} from '@nudge/platform';
import { decideWarm } from '../domain/cold';
import { decideRoleChange, type UserState } from '../domain/user';
import { CODE_MESSAGES, type OneTimeCodes } from './one-time-codes';
import type { UserRepository } from './user-repository';

export interface SignInDeps {
  users: UserRepository;
  codes: OneTimeCodes;
  mail: MailSender;
  tokens: TokenIssuer;
  perEmail: WindowLimiter;
  perIp: WindowLimiter;
  adminEmails: string[];
  siteName: string;
  /** A sign-in is engagement: the reader's count of unopened reminder e-mails starts again. */
  resetUnopened(userId: string): Promise<unknown>;
}

export type SignInMethod = 'code' | 'link' | 'google' | 'checkin';

export function createSignIn(deps: SignInDeps) {
  const { users, codes } = deps;

  /**
   * After any successful sign-in: admin from ADMIN_EMAILS, the browser's time zone while none is known, last login;
   * then a session token. (`verified` is not set here: it means the profile was completed, see profile.update.)
   */
  async function completeSignIn(user: UserState, method: SignInMethod, extra: { timeZone?: string } = {}) {
    // Parallel sign-ins of one reader (two links, a check-in answered twice at once) each decide on the user as the
    // other left them: a sign-in never fails because another one was recorded first.
    const updated = await users.update(
      user._id,
      (current) => {
        const decided = [];
        if (deps.adminEmails.includes(current.email))
          decided.push(...decideRoleChange(current, 'admin', 'ADMIN_EMAILS'));
        if (extra.timeZone && extra.timeZone !== current.timeZone && current.timeZone === 'UTC') {
          decided.push({
            type: AuthEvents.ProfileUpdated.type,
            data: { userId: current._id, timeZone: extra.timeZone },
          });
        }
        decided.push({ type: AuthEvents.UserSignedIn.type, data: { userId: current._id, method } });
        // A cold reader who signs in is warm again (autoactive, type 0): reminders resume.
        decided.push(...decideWarm(current));
        return decided;
      },
      user._id,
    );
    if (!updated) throw new Error(`user ${user._id} vanished during a sign-in`);
    await deps.resetUnopened(user._id);
    const token = await deps.tokens.signSession({
      userId: updated._id,
      email: updated.email,
      role: updated.role,
    });
    return { user: updated, token };
  }

  return {
    completeSignIn,

    /** POST /api/user/auth: a 6-digit code by e-mail; a new address becomes a user who has not completed the profile. */
    async requestCode(email: string, ip: string) {
      if (!(await deps.perIp.hit(ip)))
        throw tooManyRequests('Too many sign-in codes from this network; please wait a while');
      if (!(await deps.perEmail.hit(email)))
        throw tooManyRequests('Too many codes for this email; please wait a while and try again');
      const { user } = await users.findOrRegister({ email, source: 'self' }, null);
      const code = await codes.issue(`email:${user.email}`);
      await deps.mail.send({
        to: user.email,
        subject: `Your ${deps.siteName} sign-in code: ${code}`,
        text: `Your ${deps.siteName} sign-in code is ${code}.\n\nIt expires in 10 minutes. If you did not ask for it, ignore this e-mail.`,
        html: `<p>Your ${deps.siteName} sign-in code is</p><p style="font-size:28px;font-weight:bold;letter-spacing:4px">${code}</p><p>It expires in 10 minutes. If you did not ask for it, ignore this e-mail.</p>`,
      });
      return { status: true as const, message: 'OTP sent to your email' };
    },

    /** POST /api/user/verify */
    async verifyCode(email: string, otp: string, timeZone?: string) {
      const user = await users.byEmail(email);
      const result = user ? await codes.check(`email:${user.email}`, otp) : 'missing';
      if (!user || result !== 'ok') throw badRequest(CODE_MESSAGES[result === 'ok' ? 'missing' : result]);
      return completeSignIn(user, 'code', timeZone ? { timeZone } : {});
    },
  };
}

export type SignIn = ReturnType<typeof createSignIn>;
