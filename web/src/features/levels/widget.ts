// The levels widget on the home feed (reader.md §2 levels widget, §4 Level). Pure.
import { DEFAULT_POST_WORDING, type LevelPanelTexts, type PostWording } from '../progress/levels';

/** The site's words for a post, from the postsingular / postplural settings (defaults 'post' / 'posts'). */
export function postWording(settings: { postsingular?: string; postplural?: string }): PostWording {
  return {
    singular: settings.postsingular?.trim() || DEFAULT_POST_WORDING.singular,
    plural: settings.postplural?.trim() || DEFAULT_POST_WORDING.plural,
  };
}

/** What the widget's button shows: the current level and how far to the next, or that there are no levels. */
export function widgetSummary(texts: LevelPanelTexts): { title: string; percent: number | null } {
  if (texts.kind === 'empty') return { title: texts.message, percent: null };
  return { title: texts.currentLevelTitle, percent: texts.percent };
}

/** The button's accessible name: what it shows, and that it opens the Your Progress panel. */
export function widgetLabel(texts: LevelPanelTexts): string {
  if (texts.kind === 'empty') return `${texts.message}. Open Your Progress`;
  if (texts.nextLevelLabel === null)
    return `Level: ${texts.currentLevelTitle}, the highest level. Open ${texts.title}`;
  return `Level: ${texts.currentLevelTitle}, ${texts.percent}% to the next level. Open ${texts.title}`;
}
