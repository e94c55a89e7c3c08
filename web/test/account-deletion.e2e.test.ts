import { jsonCall } from '@nudge/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type E2eApp,
  e2eUnavailable,
  pageWithSession,
  type Session,
  seriousA11yViolations,
  signInThroughOutbox,
  startE2e,
} from './e2e-harness';

const unavailable = e2eUnavailable();
if (unavailable) console.log(`[e2e] account deletion: skipped: ${unavailable}`);

describe.runIf(!unavailable)('deleting an account, in Chromium', () => {
  let e2e: E2eApp;
  let admin: Session;
  const isAuth = async (token: string) =>
    (await jsonCall(e2e.app.url, 'POST', '/api/user/isauth', { token })).status;

  beforeAll(async () => {
    e2e = await startE2e({ ADMIN_EMAILS: 'admin@example.com' });
    admin = await signInThroughOutbox(e2e, 'admin@example.com', { firstname: 'Ada', lastname: 'Admin' });
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const res = await jsonCall(e2e.app.url, 'GET', '/api/template/alltemplates', undefined, admin.token);
      if (res.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => {
    await e2e?.close();
  });

  for (const width of [390, 1280]) {
    it(`a reader deletes their own account from Settings at ${width} px: the dialog says what goes and what stays`, async () => {
      const email = `leaving-${width}@example.com`;
      const reader = await signInThroughOutbox(e2e, email, { firstname: 'Lee', lastname: 'Leaving' });
      const { context, page } = await pageWithSession(e2e, reader, width);
      await page.goto('/setting');
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      await page.getByRole('button', { name: 'Delete my account' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete your account for good?' });
      await dialog.waitFor();
      await expect.poll(() => dialog.getByText('What goes:').count()).toBe(1);
      await expect.poll(() => dialog.getByText('What stays:').count()).toBe(1);
      const confirm = dialog.getByRole('button', { name: 'Delete my account' });
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
      await e2e.shot(page, `account-deletion-dialog-${width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await confirm.click();
      await page.waitForURL(/\/login/);
      await e2e.shot(page, `account-deletion-done-${width}`);
      expect(await isAuth(reader.token)).toBe(401);
      await context.close();
    });

    it(`an admin deletes a reader from the Users section at ${width} px`, async () => {
      const email = `removed-${width}@example.com`;
      const reader = await signInThroughOutbox(e2e, email, { firstname: 'Rem', lastname: 'Oved' });
      const { context, page } = await pageWithSession(e2e, admin, width);
      await page.goto('/dashboard?section=users');
      await page.getByRole('heading', { level: 2, name: 'Users' }).waitFor();
      await page.getByLabel('Search by email or name').fill(email);
      await page.getByRole('button', { name: `Edit ${email}` }).click();
      await page.getByRole('button', { name: 'Delete account' }).click();
      const confirm = page.getByRole('dialog', { name: `Delete the account of ${email}?` });
      await confirm.waitFor();
      await e2e.shot(page, `account-deletion-admin-${width}`);
      expect(await seriousA11yViolations(page)).toEqual([]);
      await confirm.getByRole('button', { name: 'Delete account' }).click();
      await page.locator('.Toastify').getByText('The account is deleted').first().waitFor();
      expect(await isAuth(reader.token)).toBe(401);
      await context.close();
    });
  }
});
