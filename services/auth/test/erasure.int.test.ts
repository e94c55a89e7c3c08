import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAuth } from './harness';

/** Every byte of the files under a folder, as one latin1 string (an address or a name is searched in it as is). */
async function bytesUnder(dir: string): Promise<string> {
  let all = '';
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) all += (await readFile(join(entry.parentPath, entry.name))).toString('latin1');
  }
  return all;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe('deleting a reader', () => {
  it('keeps personal fields sealed in the event store; deletion makes them unreadable, ends sessions, frees the address', async () => {
    const auth = await startAuth();
    try {
      const admin = await auth.signIn('boss@example.com');
      const reader = await auth.signIn('ria.sen@example.com');
      const saved = await auth.post('/api/user/updatename', {
        token: reader.token,
        firstname: 'Riyanshi',
        lastname: 'Sengupta',
      });
      expect(saved.status).toBe(200);

      // The events hold the address and names sealed, never as written.
      const commits = JSON.stringify(await auth.store.collection('events').find({}));
      expect(commits).toContain('auth.ProfileUpdated.v1');
      for (const secret of ['ria.sen@example.com', 'Riyanshi', 'Sengupta'])
        expect(commits).not.toContain(secret);
      // ...and the service reads them as written.
      const me = await auth.post('/api/user/isauth', { token: reader.token });
      expect(me.body.user).toMatchObject({ email: 'ria.sen@example.com', firstname: 'Riyanshi' });

      // A reader cannot delete another; the confirmation is required.
      expect((await auth.post(`/api/user/delete/${admin.user._id}`, {}, reader.token)).status).toBe(403);
      const unconfirmed = await auth.post('/api/user/deleteaccount', { token: reader.token });
      expect(unconfirmed.status).toBe(400);
      expect(unconfirmed.body.message).toMatch(/DELETE/);

      const deleted = await auth.post('/api/user/deleteaccount', { token: reader.token, confirm: 'DELETE' });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ status: true, message: 'Your account is deleted' });

      // Their session stops working at once; a repeated deletion (by an admin) is harmless; an unknown id is a 404.
      expect((await auth.post('/api/user/isauth', { token: reader.token })).status).toBe(401);
      const again = await auth.post(`/api/user/delete/${reader.user._id}`, {}, admin.token);
      expect(again.status).toBe(200);
      expect(again.body.message).toBe('The account was already deleted');
      expect((await auth.post(`/api/user/delete/${'0'.repeat(24)}`, {}, admin.token)).status).toBe(404);
      // An admin account is not deleted from the Users section.
      expect((await auth.post(`/api/user/delete/${admin.user._id}`, {}, admin.token)).status).toBe(403);

      // Nothing of theirs is readable in the store's files (the key is forgotten; read models zeroed).
      await settle();
      const bytes = await bytesUnder(join(auth.dataDir, 'auth'));
      for (const secret of ['ria.sen@example.com', 'Riyanshi', 'Sengupta'])
        expect(bytes).not.toContain(secret);

      // The deletion is recorded as a data request (once, though asked twice).
      const requests = auth.store.collection('data_requests');
      expect(await requests.find({})).toEqual([
        expect.objectContaining({
          kind: 'deletion',
          userId: reader.user._id,
          channel: 'self-serve',
          email: '',
        }),
      ]);

      // Projections rebuilt from the events equal the live ones.
      const users = auth.store.collection('users');
      const live = await users.find({}, { sort: { _id: 1 } });
      const liveRequests = await requests.find({});
      expect(live.map((u) => u._id)).not.toContain(reader.user._id);
      await auth.events.rebuild();
      expect(await users.find({}, { sort: { _id: 1 } })).toEqual(live);
      expect(await requests.find({})).toEqual(liveRequests);

      // The address signs up again as a new account.
      const back = await auth.signIn('ria.sen@example.com');
      expect(back.user._id).not.toBe(reader.user._id);
      expect(back.user.firstname).toBe('');
    } finally {
      await auth.close();
    }
  });
});
