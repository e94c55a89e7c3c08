import { createAction } from '@reduxjs/toolkit';

/** A route change: the path and the full URL of the page now shown. */
export const pageVisited = createAction<{ path: string; url: string }>('eventlog/pageVisited');
