import { ContentEvents, eventData } from '@nudge/contracts';
import type { EventEnvelope, Projection } from '@nudge/platform';
import { SETTINGS_STREAM, type StoredSettings } from '../domain/site-settings';
import type { ContentCollections } from './collections';

export const SETTINGS_DOC = 'site';

/** The stored settings object (without defaults) and its stream version. */
export function createSettingsProjection(c: ContentCollections): Projection {
  return {
    name: 'content.sitesettings',
    async apply(event: EventEnvelope) {
      if (event.stream !== SETTINGS_STREAM || event.type !== ContentEvents.SiteSettingsUpdated.type) return;
      const current = await c.settings.findOne({ _id: SETTINGS_DOC });
      if (current && current.version >= event.version) return;
      const { settings } = eventData(ContentEvents.SiteSettingsUpdated, event);
      await c.settings.replaceOne(
        { _id: SETTINGS_DOC },
        { _id: SETTINGS_DOC, settings: settings as StoredSettings, version: event.version },
        { upsert: true },
      );
    },
    async reset() {
      await c.settings.drop();
    },
  };
}
