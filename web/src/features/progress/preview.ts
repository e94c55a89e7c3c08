// Text previews on cards (reader.md §2 post card, §9: card body 150 characters, recommendation heading 50 and
// body 150), cut at a word boundary with one '...' (the rule is shared with the server's gated previews).
import { ELLIPSIS, textPreview } from '@nudge/contracts/preview';

export { ELLIPSIS };
export const CARD_PREVIEW_LENGTH = 150;
export const RECOMMENDATION_HEADING_LENGTH = 50;
export const RECOMMENDATION_BODY_LENGTH = 150;

/** The first words of `text` within `max` characters, with '...' once when cut; '' for a missing text. */
export const preview = textPreview;

/** Post card body: first 150 characters. */
export function cardPreview(body: string | null | undefined): string {
  return preview(body, CARD_PREVIEW_LENGTH);
}

/** Recommendation card heading: first 50 characters. */
export function recommendationHeading(heading: string | null | undefined): string {
  return preview(heading, RECOMMENDATION_HEADING_LENGTH);
}

/** Recommendation card body: first 150 characters. */
export function recommendationBody(body: string | null | undefined): string {
  return preview(body, RECOMMENDATION_BODY_LENGTH);
}
