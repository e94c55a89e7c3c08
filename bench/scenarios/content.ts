import { seededData } from './seed';
import type { Scenario } from './types';

/** The home feed's first page for a signed-in reader: gateway -> content (posts, counters, topic counts, gating). */
export const feedPage: Scenario = {
  name: 'getallpost page 1',
  async setup({ url }) {
    const { reader } = await seededData(url);
    return {
      method: 'POST',
      path: '/api/logs/getallpost?page=1&limit=5',
      headers: { authorization: `Bearer ${reader.token}` },
      body: { subscription: false },
    };
  },
};

/** Opening one post as a signed-in reader: gateway -> content (post, counters, gating, the read recorded). */
export const openPost: Scenario = {
  name: 'template/{id}',
  async setup({ url }) {
    const { reader, postIds } = await seededData(url);
    return { method: 'POST', path: `/api/template/${postIds[1]}`, body: { token: reader.token } };
  },
};
