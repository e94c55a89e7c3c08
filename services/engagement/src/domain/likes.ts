import { EngagementEvents } from '@nudge/contracts';

/** One user's like of one post: its own stream, so two users never contend and a user's clicks stay in order. */
export const likeStream = (userId: string, templateId: string) => `like-${userId}-${templateId}`;

export interface LikeState {
  liked: boolean;
  /** The stream's version (0 = never liked nor unliked). */
  version: number;
}

export interface DecidedEvent {
  type: string;
  data: unknown;
}

/** like/add: the LikeSet event when the wanted state differs from the current one; nothing when it is the same. */
export function decideLike(
  state: LikeState | null,
  cmd: { userId: string; templateId: string; liked: boolean },
): DecidedEvent[] {
  if ((state?.liked ?? false) === cmd.liked) return [];
  return [
    {
      type: EngagementEvents.LikeSet.type,
      data: { userId: cmd.userId, templateId: cmd.templateId, liked: cmd.liked },
    },
  ];
}
