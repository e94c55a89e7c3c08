import { describe, expect, it } from 'vitest';
import { startAuth } from './harness';

describe('the users read model is a projection of the event store', () => {
  it('dropping it and rebuilding from the events gives the same users', async () => {
    const auth = await startAuth();
    try {
      const admin = await auth.signIn('boss@example.com');
      const reader = await auth.signIn('reader@example.com');
      await auth.post('/api/user/update', {
        token: reader.token,
        email: 'reader@example.com',
        info: {
          ageConfirmed: true,
          firstname: 'Ria',
          lastname: 'Sen',
          topics: ['aaaaaaaaaaaaaaaaaaaaaaaa'],
          notiinfo: { time: '21:30', active: false },
        },
      });
      await auth.post(
        '/api/user/add',
        { info: { emails: 'c1@example.com c2@example.com', type: 1 } },
        admin.token,
      );
      await auth.post(`/api/user/update/${reader.user._id}`, { info: { role: 'premium' } }, admin.token);

      const users = auth.store.collection('users');
      const live = await users.find({}, { sort: { _id: 1 } });
      expect(live).toHaveLength(4);

      await users.drop();
      expect(await users.countDocuments({})).toBe(0);
      await auth.events.rebuild();
      expect(await users.find({}, { sort: { _id: 1 } })).toEqual(live);
      const me = await auth.post('/api/user/isauth', { token: reader.token });
      expect(me.body.user).toMatchObject({
        firstname: 'Ria',
        role: 'premium',
        notiinfo: { time: '21:30', active: false },
      });
    } finally {
      await auth.close();
    }
  });

  it('the Users search and topic filter find the same users after a rebuild', async () => {
    const auth = await startAuth();
    try {
      const admin = await auth.signIn('boss@example.com');
      const topic = 'aaaaaaaaaaaaaaaaaaaaaaaa';
      await auth.post(
        '/api/user/add',
        { info: { emails: 'early@example.com', topics: [topic] } },
        admin.token,
      );
      const found = async (query: string) =>
        (await auth.get(`/api/user/getallusers?${query}`, admin.token)).body.data.map(
          (u: { email: string }) => u.email,
        );
      expect(await found('q=early')).toEqual(['early@example.com']);
      expect(await found(`topic=${topic}`)).toEqual(['early@example.com']);

      await auth.events.rebuild();
      expect(await found('q=early')).toEqual(['early@example.com']);
      expect(await found(`topic=${topic}`)).toEqual(['early@example.com']);
    } finally {
      await auth.close();
    }
  });
});
