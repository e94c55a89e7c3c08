import type { User } from '@nudge/contracts';
import type { UserState } from './user';

export interface EmailStats {
  emails_sent: number;
  emails_open: number;
  last_email_open: string | null;
}

const NO_STATS: EmailStats = { emails_sent: 0, emails_open: 0, last_email_open: null };

/** The user as the API returns it (contracts' User). E-mail statistics come from reporting (admin views); 0 elsewhere. */
export function toUserView(state: UserState, stats: EmailStats | undefined = NO_STATS): User {
  stats ??= NO_STATS;
  return {
    _id: state._id,
    email: state.email,
    firstname: state.firstname,
    lastname: state.lastname,
    phone: state.phone,
    enableWA: state.enableWA,
    enableEmail: state.enableEmail,
    notiinfo: state.notiinfo,
    topics: state.topics,
    verified: state.verified,
    role: state.role,
    type: state.type,
    notification_time: state.notiinfo.time,
    notification_status: state.notification_status,
    notification_type: notificationType(state),
    category: state.category,
    timeZone: state.timeZone,
    emails_sent: stats.emails_sent,
    emails_open: stats.emails_open,
    email_open_rate: stats.emails_sent ? Math.round((stats.emails_open / stats.emails_sent) * 1000) / 10 : 0,
    last_email_open: stats.last_email_open,
    last_app_login: state.last_app_login,
    createdAt: state.createdAt,
  };
}

function notificationType(state: UserState): User['notification_type'] {
  const email = state.enableEmail;
  const wa = state.enableWA && state.phone !== '';
  if (email && wa) return 'both';
  if (email) return 'email';
  if (wa) return 'whatsapp';
  return 'none';
}
