import { AuthEvents, MINIMUM_AGE_MESSAGE } from '@nudge/contracts';
import type { DecidedEvent } from '@nudge/platform';
import {
  badRequest,
  notFound,
  tooManyRequests,
  type WhatsAppSender,
  type WindowLimiter,
} from '@nudge/platform';
import { decideProfileChange, type ProfileChanges, type UserState } from '../domain/user';
import { CODE_MESSAGES, type OneTimeCodes } from './one-time-codes';
import type { UserRepository } from './user-repository';

export interface ProfileDeps {
  users: UserRepository;
  codes: OneTimeCodes;
  whatsapp: WhatsAppSender;
  /**
   * WhatsApp codes an hour, counted in the shared store (every replica counts into the same windows): per account,
   * per destination number (whichever accounts ask: texting a stranger's phone) and per client IP.
   */
  perAccount: WindowLimiter;
  perNumber: WindowLimiter;
  perIp: WindowLimiter;
  siteName: string;
}

export function createProfile(deps: ProfileDeps) {
  const { users } = deps;

  async function load(userId: string): Promise<UserState> {
    const user = await users.get(userId);
    if (!user) throw notFound('User not found');
    return user;
  }

  /** Records what `decide` makes of the user as they are now (decided again after a parallel change). */
  async function change(userId: string, decide: (user: UserState) => DecidedEvent[], actor: string) {
    const updated = await users.update(userId, decide, actor);
    if (!updated) throw notFound('User not found');
    return updated;
  }

  return {
    load,

    /**
     * POST /api/user/update. The WhatsApp number is set only by verifying it (otpTransaction); here it may be
     * kept or cleared, and WhatsApp reminders need a verified number.
     * `completesProfile`: the profile form was submitted, which makes the user `verified` (reader.md: the form says
     * 'Continue' until then and 'Update' after, and the sign-in modal asks unverified users for step 2). Completing
     * it needs `ageConfirmed` (reader.md §9, minimum age 16).
     */
    async update(
      userId: string,
      changes: ProfileChanges,
      actor: string,
      options: { completesProfile?: boolean; ageConfirmed?: boolean } = {},
    ) {
      return change(
        userId,
        (user) => {
          const { phone, ...rest } = changes;
          const next: ProfileChanges = { ...rest };
          if (phone !== undefined && phone !== user.phone) {
            if (phone !== '') throw badRequest('Please verify your WhatsApp number first');
            next.phone = '';
            next.enableWA = false;
          }
          const phoneAfter = next.phone ?? user.phone;
          if (next.enableWA === true && phoneAfter === '')
            throw badRequest('Please verify your WhatsApp number first');
          const decided = decideProfileChange(user, next);
          if (options.completesProfile && !user.verified) {
            // Sign-up ends here: a reader who does not confirm the minimum age gets no account (nothing recorded).
            if (options.ageConfirmed !== true) throw badRequest(MINIMUM_AGE_MESSAGE);
            decided.push({
              type: AuthEvents.UserVerified.type,
              data: { userId: user._id, email: user.email, ageConfirmed: true },
            });
          }
          return decided;
        },
        actor,
      );
    },

    /** POST /api/user/otpTransaction (stages of reader.md §4). */
    async whatsAppStage(userId: string, phone: string, stage: 1 | 2 | 3 | 4, otp: string, ip: string) {
      const user = await load(userId);
      const key = `whatsapp:${user._id}:${phone}`;
      if (stage === 1 || stage === 3) {
        if (!(await deps.perIp.hit(ip)))
          throw tooManyRequests('Too many codes requested from this network; please wait a while');
        if (!(await deps.perAccount.hit(user._id)))
          throw tooManyRequests('Too many codes requested; please wait a while');
        if (!(await deps.perNumber.hit(phone)))
          throw tooManyRequests('Too many codes sent to this number; please wait a while');
        const code = await deps.codes.issue(key);
        await deps.whatsapp.send({
          to: phone,
          text: `Your ${deps.siteName} verification code is ${code}. It expires in 10 minutes.`,
        });
        return { status: true as const, message: 'OTP sent to your WhatsApp number' };
      }
      if (stage === 4) throw badRequest('This number is already verified');
      const result = await deps.codes.check(key, otp);
      if (result !== 'ok') throw badRequest(CODE_MESSAGES[result]);
      await change(
        user._id,
        () => [{ type: AuthEvents.WhatsAppNumberVerified.type, data: { userId: user._id, phone } }],
        user._id,
      );
      return { status: true as const, message: 'WhatsApp number verified successfully' };
    },

    /** PUT /api/user/updatenotificationdetails/{id}: one call toggles subscribed / unsubscribed. */
    async toggleNotifications(userId: string) {
      return change(
        userId,
        (user) =>
          decideProfileChange(user, { notiinfo: { ...user.notiinfo, active: !user.notiinfo.active } }),
        userId,
      );
    },
    /** One-click unsubscribe (RFC 8058): reminders off; a repeat changes nothing. */
    async stopNotifications(userId: string) {
      return change(
        userId,
        (user) => decideProfileChange(user, { notiinfo: { ...user.notiinfo, active: false } }),
        userId,
      );
    },
  };
}

export type Profile = ReturnType<typeof createProfile>;
