import type { SiteSettings, SiteSettingsInput } from '@nudge/contracts';
import { handleCommand, type ServiceEventStore } from '@nudge/platform';
import { SETTINGS_STREAM, settingsDecider, withDefaults } from '../domain/site-settings';
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
      const { state } = await handleCommand(events, SETTINGS_STREAM, settingsDecider, changes, { actor });
      return withDefaults(state);
    },
  };
}

export type SiteSettingsService = ReturnType<typeof createSiteSettings>;
