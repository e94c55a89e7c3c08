import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  type E2eApp,
  e2eUnavailable,
  pageWithSession,
  type Session,
  seriousA11yViolations,
  signInThroughOutbox,
  startE2e,
} from './e2e-harness';

const unavailable = e2eUnavailable();
if (unavailable) console.log(`[e2e] admin lists: skipped: ${unavailable}`);

describe.runIf(!unavailable)('admin lists an editor can work with, in Chromium', () => {
  let e2e: E2eApp;
  let admin: Session;
  const api = (method: string, path: string, body?: unknown, token?: string) =>
    apiCall(e2e, method, path, body, token);

  const users = (page: Page) => page.getByRole('grid', { name: 'Users' });
  const firstEmail = async (page: Page) =>
    (await users(page).getByRole('row').nth(1).getByRole('gridcell').nth(1).innerText()).trim();

  beforeAll(async () => {
    e2e = await startE2e({ ADMIN_EMAILS: 'admin@example.com' });
    admin = await signInThroughOutbox(e2e, 'admin@example.com', { firstname: 'Ada', lastname: 'Admin' });
    const emails = Array.from({ length: 26 }, (_, i) => `member${String(i).padStart(2, '0')}@example.com`);
    await api('POST', '/api/user/add', { info: { emails: emails.join(' ') } }, admin.token);
    const found = await api('GET', '/api/user/getallusers?email=member07@', undefined, admin.token);
    await api(
      'POST',
      `/api/user/update/${found.data[0]._id}`,
      { info: { firstname: 'Grace', lastname: 'Lovelace-Müller' } },
      admin.token,
    );
  });
  afterAll(() => e2e?.close());

  it('pages, sizes, sorts and filters the Users table from the URL; Back, reload and a row click work as expected', async () => {
    const { context, page } = await pageWithSession(e2e, admin, 1280);
    await page.goto('/dashboard?section=users');
    await page.getByText('1 - 10 of 27').waitFor();

    await page.getByRole('button', { name: 'Go to last page' }).click();
    await page.getByText('21 - 27 of 27').waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBe('3');
    await page.goBack();
    await page.getByText('1 - 10 of 27').waitFor();

    await page.getByLabel('Page (1-3)').fill('2');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await page.getByText('11 - 20 of 27').waitFor();

    await page.getByRole('combobox', { name: /Rows per page/ }).click();
    await page.getByRole('option', { name: '25', exact: true }).click();
    await page.getByText('1 - 25 of 27').waitFor();
    expect(new URL(page.url()).searchParams.get('size')).toBe('25');

    await users(page)
      .locator('[role="columnheader"][data-field="email"] .MuiDataGrid-columnHeaderTitleContainer')
      .click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('email');
    await expect.poll(() => firstEmail(page), { timeout: 10_000 }).toBe('admin@example.com');
    await users(page)
      .locator('[role="columnheader"][data-field="email"] .MuiDataGrid-columnHeaderTitleContainer')
      .click();
    await expect.poll(() => firstEmail(page), { timeout: 10_000 }).toBe('member25@example.com');
    await e2e.shot(page, 'admin-users-sorted-1280');

    await page.getByLabel('Search by email or name').fill('lovelace müller');
    await page.getByText('1 - 1 of 1').waitFor();
    expect(await firstEmail(page)).toBe('member07@example.com');
    const shared = page.url();
    expect(new URL(shared).searchParams.get('q')).toBe('lovelace müller');

    // A shared link opens the same filtered, sorted view.
    const other = await pageWithSession(e2e, admin, 1280);
    await other.page.goto(shared);
    await other.page.getByText('1 - 1 of 1').waitFor();
    expect(await other.page.getByLabel('Search by email or name').inputValue()).toBe('lovelace müller');
    await other.context.close();

    await users(page).getByRole('row').nth(1).getByRole('gridcell').nth(1).click();
    await page.getByRole('dialog', { name: 'Edit member07@example.com' }).waitFor();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByText('1 - 25 of 27').waitFor();
    await page.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'admin', exact: true }).click();
    await page.getByText('1 - 1 of 1').waitFor();
    expect(await firstEmail(page)).toBe('admin@example.com');
    expect((await seriousA11yViolations(page)).map((v) => v.id)).toEqual([]);
    await e2e.shot(page, 'admin-users-filtered-1280');
    await context.close();
  });

  it('a list that cannot load shows an error with Retry, and Retry loads it', async () => {
    const { context, page } = await pageWithSession(e2e, admin, 1280);
    await page.route('**/api/user/getallusers**', (route) => route.abort());
    await page.goto('/dashboard?section=users');
    const error = page.getByRole('alert').filter({ hasText: 'the users could not be loaded' });
    await error.waitFor();
    expect(await users(page).count()).toBe(0);
    await e2e.shot(page, 'admin-users-load-error-1280');
    await page.unroute('**/api/user/getallusers**');
    await error.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('1 - 10 of 27').waitFor();
    await context.close();
  });

  it('at 390 px the row action is on screen and the filters wrap; no serious axe violation', async () => {
    const { context, page } = await pageWithSession(e2e, admin, 390);
    await page.goto('/dashboard?section=users');
    await page.getByText('1 - 10 of 27').waitFor();
    const edit = page.getByRole('button', { name: 'Edit member25@example.com' });
    const box = await edit.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    await e2e.shot(page, 'admin-users-390');
    expect((await seriousA11yViolations(page)).map((v) => v.id)).toEqual([]);
    await page.goto('/dashboard?section=eventlogs&eventType=sign_up');
    const log = page.getByRole('grid', { name: 'Event logs' });
    await log.getByRole('columnheader', { name: 'Created On' }).waitFor();
    await expect.poll(() => log.getByRole('row').count(), { timeout: 15_000 }).toBeGreaterThan(1);
    expect(await log.getByText('sign_in').count()).toBe(0);
    await e2e.shot(page, 'admin-eventlogs-filtered-390');
    expect((await seriousA11yViolations(page)).map((v) => v.id)).toEqual([]);
    await context.close();
  });
});
