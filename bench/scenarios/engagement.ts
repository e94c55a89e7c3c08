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

/** A signed-in reader comments on the free posts in turn: gateway -> engagement (comment appended and projected). */
export const comment: Scenario = {
  name: 'comment/add',
  async setup({ url }) {
    const { reader, postIds } = await seededData(url);
    // Every tenth seeded post is premium, where a reader without a plan may not comment.
    const free = postIds.filter((_, i) => i % 10 !== 0);
    // Commenting needs a name: the reader gives one, as the web app asks them to.
    const named = await fetch(new URL('/api/user/updatename', url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: reader.token, firstname: 'Bench', lastname: 'Reader' }),
    });
    if (!named.ok)
      throw new Error(`updatename answered ${named.status}: ${(await named.text()).slice(0, 300)}`);
    // Engagement learns of posts and names from the other services' events on the bus: wait until it knows them.
    const deadline = Date.now() + 300_000;
    for (;;) {
      const response = await fetch(new URL('/api/comment/add', url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: reader.token, templateid: postIds.at(-1), message: 'First!' }),
      });
      if (response.ok) break;
      if ((response.status !== 404 && response.status !== 400) || Date.now() > deadline)
        throw new Error(`comment/add answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return {
      method: 'POST',
      path: '/api/comment/add',
      bodies: (i) => ({
        token: reader.token,
        templateid: free[i % free.length],
        message: `Comment number ${i + 1}: this one helped me slow down today.`,
      }),
    };
  },
};
