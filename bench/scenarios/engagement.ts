import { seededData } from './seed';
import type { Scenario } from './types';

/**
 * Likes and unlikes through the gateway: request i sets post (i mod 1000) to liked on even rounds and unliked on odd
 * ones, so every request changes a like's state (an event appended and projected), not a repeat that changes nothing.
 */
export const like: Scenario = {
  name: 'like/add',
  async setup({ url }) {
    const { reader, postIds } = await seededData(url);
    return {
      method: 'POST',
      path: '/api/like/add',
      bodies: (i) => ({
        token: reader.token,
        templateid: postIds[i % postIds.length],
        status: Math.floor(i / postIds.length) % 2 === 0,
      }),
    };
  },
};
