import type { RootState } from '../../app/store';

export const selectPostState = (state: RootState) => state.post;
export const selectPost = (state: RootState) => state.post.post;
export const selectLikeConfirmedFor = (state: RootState, templateId: string): boolean | null =>
  state.post.post?._id === templateId ? state.post.likeConfirmed : null;
