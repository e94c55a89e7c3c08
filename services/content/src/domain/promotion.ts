import { ContentEvents, expiryInstant, PromotionSnapshot } from '@nudge/contracts';
import { type DecidedEvent, notFound, type SnapshotCommand, snapshotDecider } from '@nudge/platform';

export interface PromotionState extends Omit<PromotionSnapshot, 'promotionId'> {
  _id: string;
  updatedAt: string;
  version: number;
}

export const promotionStream = (promotionId: string) => `promotion-${promotionId}`;

/** Promotion fields after the app stored any uploaded image; expires already normalised (null = never). */
export type PromotionFields = Omit<PromotionSnapshot, 'promotionId' | 'createdAt'>;

/** '' or null means never; a date alone stays a date; an instant is stored in ISO form. */
export function normaliseExpiry(expires: string | null | undefined): string | null {
  const value = expires?.trim() ?? '';
  if (value === '') return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  return new Date(expiryInstant(value)).toISOString();
}

/** Readers see a promotion while it is active and not past its expiry. */
export const isLive = (p: Pick<PromotionState, 'status' | 'expires'>, now: Date): boolean =>
  p.status && (p.expires === null || expiryInstant(p.expires) > now.getTime());

export function decideAddPromotion(
  fields: PromotionFields,
  ctx: { promotionId: string; now: Date },
): DecidedEvent[] {
  const snapshot: PromotionSnapshot = {
    promotionId: ctx.promotionId,
    ...fields,
    createdAt: ctx.now.toISOString(),
  };
  return [{ type: ContentEvents.PromotionAdded.type, data: snapshot }];
}

export function decideUpdatePromotion(
  state: PromotionState,
  changes: Partial<PromotionFields>,
): DecidedEvent[] {
  const current = snapshotOf(state);
  const next: PromotionSnapshot = { ...current };
  for (const key of Object.keys(changes) as (keyof PromotionFields)[]) {
    if (changes[key] !== undefined) Object.assign(next, { [key]: changes[key] });
  }
  if (JSON.stringify(next) === JSON.stringify(current)) return [];
  return [{ type: ContentEvents.PromotionUpdated.type, data: next }];
}

export function snapshotOf(state: PromotionState): PromotionSnapshot {
  return {
    promotionId: state._id,
    image: state.image,
    imageurl: state.imageurl,
    heading: state.heading,
    body: state.body,
    btntext: state.btntext,
    btnurl: state.btnurl,
    expires: state.expires,
    status: state.status,
    createdAt: state.createdAt,
  };
}

export function evolvePromotion(
  state: PromotionState | null,
  event: { type: string; data: unknown; version: number; occurredAt: string },
): PromotionState | null {
  if (event.type !== ContentEvents.PromotionAdded.type && event.type !== ContentEvents.PromotionUpdated.type)
    return state;
  const { promotionId, ...rest } = PromotionSnapshot.parse(event.data);
  return { _id: promotionId, ...rest, updatedAt: event.occurredAt, version: event.version };
}

export const PROMOTION_NOT_FOUND = 'Promotion not found';

type AddPromotion = { promotionId: string; fields: PromotionFields; now: Date };
type UpdatePromotion = { changes: Partial<PromotionFields> };
export type PromotionCommand = SnapshotCommand<AddPromotion, UpdatePromotion>;

/** A promotion's stream folds to its latest snapshot. */
export const promotionDecider = snapshotDecider({
  evolve: evolvePromotion,
  add: (cmd: AddPromotion) => decideAddPromotion(cmd.fields, cmd),
  update: (state, cmd: UpdatePromotion) => decideUpdatePromotion(state, cmd.changes),
  notFound: () => notFound(PROMOTION_NOT_FOUND),
});
