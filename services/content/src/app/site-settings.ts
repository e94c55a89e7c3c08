import type { SiteSettings, SiteSettingsInput } from '@nudge/contracts';
import { retryOnConflict, type ServiceEventStore } from '@nudge/platform';
import { decideSettingsUpdate, SETTINGS_STREAM, withDefaults } from '../domain/site-settings';
import type { ContentCollections } from '../events/collections';
import { SETTINGS_DOC } from '../events/settings-projection';

export function createSiteSettings(deps: { c: ContentCollections; events: ServiceEventStore }) {
  const { c, events } = deps;
  const stored = () => c.settings.findOne({ _id: SETTINGS_DOC });

  return {
    async get(): Promise<SiteSettings> {
      return withDefaults((await stored())?.settings ?? {});
    },
    async update(changes: SiteSettingsInput, actor: string): Promise<SiteSettings> {
      await retryOnConflict(async () => {
        const current = await stored();
        const decided = decideSettingsUpdate(current?.settings ?? {}, changes);
        if (decided.length > 0)
          await events.append(SETTINGS_STREAM, current?.version ?? 0, decided, { actor });
      });
      return withDefaults((await stored())?.settings ?? {});
    },
  };
}

export type SiteSettingsService = ReturnType<typeof createSiteSettings>;
