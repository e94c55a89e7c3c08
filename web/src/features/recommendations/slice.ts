import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { RecommendedPost } from './types';

export interface RecommendationsState {
  templateId: string | null;
  status: 'idle' | 'loading' | 'loaded' | 'failed';
  items: RecommendedPost[];
  page: number;
  hasMore: boolean;
  loadingMore: boolean;
}

const initialState: RecommendationsState = {
  templateId: null,
  status: 'idle',
  items: [],
  page: 0,
  hasMore: false,
  loadingMore: false,
};

export const recommendationsSlice = createSlice({
  name: 'recommendations',
  initialState,
  reducers: {
    recommendationsOpened(_state, action: PayloadAction<string>) {
      return { ...initialState, templateId: action.payload, status: 'loading' };
    },
    moreRecommendationsRequested(state) {
      state.loadingMore = true;
    },
    recommendationsPageLoaded(
      state,
      action: PayloadAction<{ templateId: string; page: number; items: RecommendedPost[]; hasMore: boolean }>,
    ) {
      if (action.payload.templateId !== state.templateId) return;
      state.status = 'loaded';
      state.loadingMore = false;
      state.items = action.payload.items;
      state.page = action.payload.page;
      state.hasMore = action.payload.hasMore;
    },
    recommendationsPageFailed(state, action: PayloadAction<{ templateId: string; page: number }>) {
      if (action.payload.templateId !== state.templateId) return;
      state.loadingMore = false;
      state.hasMore = false;
      if (action.payload.page === 1) state.status = 'failed';
    },
  },
});

export const {
  recommendationsOpened,
  moreRecommendationsRequested,
  recommendationsPageLoaded,
  recommendationsPageFailed,
} = recommendationsSlice.actions;
