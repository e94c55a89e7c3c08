import type { User } from '../../shared/contracts';

/** reader.md §9: the check-in page moves on to the feed after 5 seconds. */
export const CHECKIN_REDIRECT_MS = 5000;
export const CHECKIN_DESTINATION = '/?page=all';

/** reader.md §4 texts. */
export const CHECKIN_TEXTS = {
  recorded: 'Thanks, your response has been recorded. You will now be redirected to your feed.',
  alreadyAnswered: 'You have already responded to this question. You will now be redirected to your feed.',
  invalid: 'Invalid query parameters.',
  error: 'An error occurred. Please try again later.',
} as const;

export interface CheckinQuery {
  qlid: string;
  a: string;
}

/** The e-mail link's qlid (question) and a (answer); both are required and must not be blank. */
export function parseCheckinQuery(params: URLSearchParams): CheckinQuery | null {
  const qlid = params.get('qlid')?.trim() ?? '';
  const a = params.get('a')?.trim() ?? '';
  return qlid && a ? { qlid, a } : null;
}

/** reader.md §7: POST /api/checkin?qlid={qlid}&a={a}, no body. */
export const checkinPath = ({ qlid, a }: CheckinQuery): string =>
  `/api/checkin?qlid=${encodeURIComponent(qlid)}&a=${encodeURIComponent(a)}`;

/**
 * The answer of POST /api/checkin: { status: true, user, token } and, when the question had already been answered,
 * `alreadyAnswered: true` (our choice, for the engagement service: the link still signs the reader in, so it is a
 * success and carries user and token like a new answer). A refusal (status false or an HTTP error) is an error.
 */
export interface CheckinResponse {
  status: true;
  user: User;
  token: string;
  alreadyAnswered?: boolean;
}

export type CheckinOutcome = 'recorded' | 'alreadyAnswered';

export type CheckinResult = { kind: CheckinOutcome; user: User; token: string } | { kind: 'error' };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Maps a successful answer to its outcome; one without a user or a token cannot sign the reader in: an error. */
export function checkinResult(body: unknown): CheckinResult {
  if (!isRecord(body) || body.status !== true) return { kind: 'error' };
  const { user, token } = body;
  if (!isRecord(user) || typeof user._id !== 'string' || typeof token !== 'string' || !token)
    return { kind: 'error' };
  return {
    kind: body.alreadyAnswered === true ? 'alreadyAnswered' : 'recorded',
    user: user as unknown as User,
    token,
  };
}

export type CheckinPhase = 'loading' | CheckinOutcome | 'invalid' | 'error';

export interface CheckinView {
  text: string;
  /** A new answer gets the success icon; already answered, invalid and error the failure icon. */
  icon: 'success' | 'failure' | null;
  /** Whether the page moves on to the feed by itself after CHECKIN_REDIRECT_MS. */
  redirects: boolean;
}

export function checkinView(phase: CheckinPhase): CheckinView {
  switch (phase) {
    case 'loading':
      return { text: '', icon: null, redirects: false };
    case 'recorded':
      return { text: CHECKIN_TEXTS.recorded, icon: 'success', redirects: true };
    case 'alreadyAnswered':
      return { text: CHECKIN_TEXTS.alreadyAnswered, icon: 'failure', redirects: true };
    case 'invalid':
      return { text: CHECKIN_TEXTS.invalid, icon: 'failure', redirects: false };
    case 'error':
      return { text: CHECKIN_TEXTS.error, icon: 'failure', redirects: false };
  }
}
