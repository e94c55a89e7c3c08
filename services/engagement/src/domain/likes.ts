import { EngagementEvents, eventData } from '@nudge/contracts';
import type { Decider } from '@nudge/platform';

/** One user's like of one post: its own stream, so two users never contend and a user's clicks stay in order. */
export const likeStream = (userId: string, templateId: string) => `like-${userId}-${templateId}`;

export interface LikeState {
  liked: boolean;
}

export interface SetLike {
  userId: string;
  templateId: string;
  liked: boolean;
}

/** like/add: the LikeSet event when the wanted state differs from the current one; nothing when it is the same. */
export const likeDecider: Decider<LikeState, SetLike> = {
  initialState: { liked: false },
  evolve: (state, event) =>
    event.type === EngagementEvents.LikeSet.type
      ? { liked: eventData(EngagementEvents.LikeSet, event).liked }
      : state,
  decide: (cmd, state) =>
    state.liked === cmd.liked
      ? []
      : [
          {
            type: EngagementEvents.LikeSet.type,
            data: { userId: cmd.userId, templateId: cmd.templateId, liked: cmd.liked },
          },
        ],
};
