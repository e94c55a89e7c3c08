import { unavailable } from '@nudge/platform';
import { type TextWriter, WriterError } from '../infra/openai-writer';
import type { SiteSettingsService } from './site-settings';

/** admin.md §9: AI prompt and content limit. */
export const MAX_GENERATED_CHARACTERS = 5000;

/**
 * The AI writer (admin.md §7 generate-content): the site's prompt prefix, then the admin's prompt, to any
 * OpenAI-compatible server. Without configuration it answers 503 rather than pretending.
 */
export function createAiWriter(deps: { writer: TextWriter | undefined; settings: SiteSettingsService }) {
  return {
    async generate(prompt: string, kind: 'body' | 'subjects'): Promise<string> {
      if (!deps.writer) throw unavailable('The AI writer is not configured');
      const settings = await deps.settings.get();
      const prefix = (kind === 'subjects' ? settings.subjectspromptprefix : settings.bodypromptprefix).trim();
      let content: string;
      try {
        content = await deps.writer.write(prefix ? `${prefix}\n\n${prompt}` : prompt);
      } catch (err) {
        if (err instanceof WriterError)
          throw unavailable(`The AI writer could not generate content: ${err.message}. Please try again.`);
        throw err;
      }
      return Array.from(content).slice(0, MAX_GENERATED_CHARACTERS).join('').trim();
    },
  };
}

export type AiWriter = ReturnType<typeof createAiWriter>;
