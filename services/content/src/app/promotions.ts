import type { AddPromotionRequest, PromotionChanges, PromotionView } from '@nudge/contracts';
import { handleCommand, newId, notFound, type ServiceEventStore } from '@nudge/platform';
import {
  isLive,
  normaliseExpiry,
  PROMOTION_NOT_FOUND,
  type PromotionCommand,
  type PromotionFields,
  type PromotionState,
  promotionDecider,
  promotionStream,
} from '../domain/promotion';
import type { ContentCollections } from '../events/collections';
import type { ImageIntake } from './images';

const toView = ({ version: _version, ...p }: PromotionState): PromotionView => p;

export function createPromotions(deps: {
  c: ContentCollections;
  events: ServiceEventStore;
  images: ImageIntake;
  clock: () => Date;
}) {
  const { c, events, images, clock } = deps;
  const load = async (id: string) => {
    const state = await c.promotions.findOne({ _id: id });
    if (!state) throw notFound(PROMOTION_NOT_FOUND);
    return state;
  };

  const command = (id: string, cmd: PromotionCommand, actor: string) =>
    handleCommand(events, promotionStream(id), promotionDecider, cmd, { actor });

  return {
    async add(input: AddPromotionRequest, actor: string): Promise<PromotionView> {
      const fields: PromotionFields = {
        image: (await images.resolve(input.image)) ?? '',
        imageurl: (await images.resolve(input.imageurl, { allowHttp: true })) ?? '',
        heading: input.heading,
        body: input.body,
        btntext: input.btntext,
        btnurl: input.btnurl,
        expires: normaliseExpiry(input.expires),
        status: input.status,
      };
      const promotionId = newId(clock());
      await command(promotionId, { kind: 'add', promotionId, fields, now: clock() }, actor);
      return toView(await load(promotionId));
    },

    async update(id: string, changes: PromotionChanges, actor: string): Promise<PromotionView> {
      await load(id);
      const image = await images.resolve(changes.image);
      const imageurl = await images.resolve(changes.imageurl, { allowHttp: true });
      const { expires, ...rest } = changes;
      await command(
        id,
        {
          kind: 'update',
          changes: {
            ...rest,
            ...(image !== undefined ? { image } : {}),
            ...(imageurl !== undefined ? { imageurl } : {}),
            ...(expires !== undefined ? { expires: normaliseExpiry(expires) } : {}),
          },
        },
        actor,
      );
      return toView(await load(id));
    },

    async details(id: string): Promise<PromotionView> {
      return toView(await load(id));
    },

    async all(): Promise<PromotionView[]> {
      return (await c.promotions.find({}, { sort: { createdAt: -1, _id: -1 } })).map(toView);
    },

    /** Active promotions not past their expiry, newest first. */
    async live() {
      const now = clock();
      return (await c.promotions.find({ status: true }, { sort: { createdAt: -1, _id: -1 } }))
        .filter((p) => isLive(p, now))
        .map(({ _id, image, imageurl, heading, body, btntext, btnurl, expires }) => ({
          _id,
          image,
          imageurl,
          heading,
          body,
          btntext,
          btnurl,
          expires,
        }));
    },
  };
}

export type Promotions = ReturnType<typeof createPromotions>;
