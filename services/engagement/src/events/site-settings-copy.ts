import { ContentEvents, eventData } from '@nudge/contracts';
import type { DocumentStore, EventHandler } from '@nudge/platform';

interface SettingsDoc {
  _id: 'site';
  isCommentsVisible: boolean;
  version: number;
}

export interface SiteSettingsCopy {
  handlers: Record<string, EventHandler>;
  /** Whether readers may comment; on until an admin turns the isCommentsVisible setting off. */
  commentsVisible(): Promise<boolean>;
  reset(): Promise<void>;
}

/** A setting the admin form may have saved as a string is read the way a person would. */
const isOn = (value: unknown): boolean => value !== false && value !== 'false' && value !== 0;

export function createSiteSettingsCopy(store: DocumentStore): SiteSettingsCopy {
  const settings = store.collection<SettingsDoc>('site_settings');
  return {
    handlers: {
      [ContentEvents.SiteSettingsUpdated.type]: async (event) => {
        const data = eventData(ContentEvents.SiteSettingsUpdated, event);
        const current = await settings.findOne({ _id: 'site' });
        if (current && current.version >= event.version) return;
        const value = data.settings?.isCommentsVisible;
        await settings.replaceOne(
          { _id: 'site' },
          {
            _id: 'site',
            isCommentsVisible: value === undefined ? true : isOn(value),
            version: event.version,
          },
          { upsert: true },
        );
      },
    },
    async commentsVisible() {
      return (await settings.findOne({ _id: 'site' }))?.isCommentsVisible ?? true;
    },
    reset: () => settings.drop(),
  };
}
