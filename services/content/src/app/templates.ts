import type { AddTemplateRequest, AdminTemplate, TemplateChanges } from '@nudge/contracts';
import { badRequest, handleCommand, newId, notFound, type ServiceEventStore } from '@nudge/platform';
import {
  POST_NOT_FOUND,
  type TemplateCommand,
  type TemplateFields,
  type TemplateState,
  templateDecider,
  templateStream,
} from '../domain/template';
import type { ContentCollections } from '../events/collections';
import type { ImageIntake } from './images';
import type { PostViews } from './post-views';
import type { Topics } from './topics';

export { POST_NOT_FOUND };

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

export interface TemplatesDeps {
  c: ContentCollections;
  events: ServiceEventStore;
  topics: Topics;
  images: ImageIntake;
  views: PostViews;
  clock: () => Date;
}

/** Admin use cases of posts (admin.md §3, §5, §7): event-sourced on `template-<id>`, read from `templates`. */
export function createTemplates(deps: TemplatesDeps) {
  const { c, events, topics, images, views, clock } = deps;

  const requireTopic = async (topicId: string) => {
    if (!(await topics.exists(topicId))) throw badRequest('Please select a valid topic');
  };
  const load = async (id: string): Promise<TemplateState> => {
    const state = await c.templates.findOne({ _id: id });
    if (!state) throw notFound(POST_NOT_FOUND);
    return state;
  };
  const newSubjectId = () => newId(clock());
  const command = (id: string, cmd: TemplateCommand, actor: string) =>
    handleCommand(events, templateStream(id), templateDecider, cmd, { actor });
  const adminView = async (state: TemplateState) => (await views.adminPosts([state], true))[0]!;

  return {
    async add(input: AddTemplateRequest, actor: string): Promise<AdminTemplate> {
      await requireTopic(input.topic);
      const image = (await images.resolve(input.image)) ?? '';
      const templateId = newId(clock());
      const fields: TemplateFields = {
        heading: input.heading,
        body: input.body,
        image,
        type: input.type,
        topic: input.topic,
        status: input.status,
        subjects: input.subjects,
        subject: input.subject,
      };
      await command(templateId, { kind: 'add', templateId, fields, now: clock(), newSubjectId }, actor);
      return adminView(await load(templateId));
    },

    async update(id: string, changes: TemplateChanges, actor: string): Promise<AdminTemplate> {
      const before = await load(id);
      if (changes.topic !== undefined && changes.topic !== before.topic) await requireTopic(changes.topic);
      const image = await images.resolve(changes.image);
      const changed = { ...changes, ...(image !== undefined ? { image } : {}) };
      await command(id, { kind: 'update', changes: changed, newSubjectId }, actor);
      return adminView(await load(id));
    },

    async details(id: string): Promise<AdminTemplate> {
      return adminView(await load(id));
    },

    async page(page: number, limit: number): Promise<{ total: number; data: AdminTemplate[] }> {
      const [total, docs] = await Promise.all([
        c.templates.countDocuments({}),
        c.templates.find({}, { sort: NEWEST_FIRST, skip: (page - 1) * limit, limit }),
      ]);
      return { total, data: await views.adminPosts(docs, false) };
    },

    async all(withSubjects: boolean): Promise<AdminTemplate[]> {
      return views.adminPosts(await c.templates.find({}, { sort: NEWEST_FIRST }), withSubjects);
    },
  };
}

export type Templates = ReturnType<typeof createTemplates>;
