import { ContentEvents, type SubjectInput, TemplateSnapshot } from '@nudge/contracts';
import { type DecidedEvent, notFound, type SnapshotCommand, snapshotDecider } from '@nudge/platform';

export type SubjectLine = TemplateSnapshot['subjects'][number];

/** The post aggregate's state: the latest snapshot, its stream version and when it last changed. */
export interface TemplateState {
  _id: string;
  heading: string;
  body: string;
  /** /api/media/{id}, or '' when the post has no image. */
  image: string;
  type: 0 | 1;
  topic: string;
  status: boolean;
  subjects: SubjectLine[];
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const POST_NOT_FOUND = 'Post not found';

export const templateStream = (templateId: string) => `template-${templateId}`;

/** What add and update decide on, after the app has stored any uploaded image. */
export interface TemplateFields {
  heading: string;
  body: string;
  image: string;
  type: 0 | 1;
  topic: string;
  status: boolean;
  subjects: SubjectInput[];
  /** The subject input's text at submit: kept as one more subject line when not blank. */
  subject?: string | undefined;
}

const titleOf = (input: SubjectInput) => (typeof input === 'string' ? input : input.title).trim();

/**
 * Subject lines as stored: titles trimmed, blanks dropped, unique by title (the first wins). A line keeps its id
 * when the input names it or when a line with the same title already exists, so analytics stay attached.
 */
export function normaliseSubjects(
  inputs: SubjectInput[],
  extra: string | undefined,
  existing: SubjectLine[],
  newSubjectId: () => string,
): SubjectLine[] {
  const all = extra?.trim() ? [...inputs, extra] : inputs;
  const byId = new Map(existing.map((s) => [s.id, s]));
  const byTitle = new Map(existing.map((s) => [s.title, s]));
  const seen = new Set<string>();
  const usedIds = new Set<string>();
  const lines: SubjectLine[] = [];
  for (const input of all) {
    const title = titleOf(input);
    if (!title || seen.has(title)) continue;
    seen.add(title);
    const named = typeof input === 'string' ? undefined : input;
    const previous = (named?.id ? byId.get(named.id) : undefined) ?? byTitle.get(title);
    let id = previous?.id ?? newSubjectId();
    if (usedIds.has(id)) id = newSubjectId();
    usedIds.add(id);
    lines.push({ id, title, status: named?.status ?? previous?.status ?? true });
  }
  return lines;
}

export function snapshotOf(state: TemplateState): TemplateSnapshot {
  return {
    templateId: state._id,
    heading: state.heading,
    body: state.body,
    image: state.image,
    type: state.type,
    topic: state.topic,
    status: state.status,
    subjects: state.subjects,
    createdAt: state.createdAt,
  };
}

export function decideAddTemplate(
  fields: TemplateFields,
  ctx: { templateId: string; now: Date; newSubjectId: () => string },
): DecidedEvent[] {
  const snapshot: TemplateSnapshot = {
    templateId: ctx.templateId,
    heading: fields.heading,
    body: fields.body,
    image: fields.image,
    type: fields.type,
    topic: fields.topic,
    status: fields.status,
    subjects: normaliseSubjects(fields.subjects, fields.subject, [], ctx.newSubjectId),
    createdAt: ctx.now.toISOString(),
  };
  return [{ type: ContentEvents.TemplateAdded.type, data: snapshot }];
}

/** The changed post as one TemplateUpdated snapshot, or nothing when the changes change nothing. */
export function decideUpdateTemplate(
  state: TemplateState,
  changes: Partial<TemplateFields>,
  ctx: { newSubjectId: () => string },
): DecidedEvent[] {
  const current = snapshotOf(state);
  const subjectsGiven = changes.subjects !== undefined || Boolean(changes.subject?.trim());
  const next: TemplateSnapshot = {
    ...current,
    ...(changes.heading !== undefined ? { heading: changes.heading } : {}),
    ...(changes.body !== undefined ? { body: changes.body } : {}),
    ...(changes.image !== undefined ? { image: changes.image } : {}),
    ...(changes.type !== undefined ? { type: changes.type } : {}),
    ...(changes.topic !== undefined ? { topic: changes.topic } : {}),
    ...(changes.status !== undefined ? { status: changes.status } : {}),
    subjects: subjectsGiven
      ? normaliseSubjects(
          changes.subjects ?? state.subjects,
          changes.subject,
          state.subjects,
          ctx.newSubjectId,
        )
      : state.subjects,
  };
  if (JSON.stringify(next) === JSON.stringify(current)) return [];
  return [{ type: ContentEvents.TemplateUpdated.type, data: next }];
}

/** Folds one event into the state. Pure: the time of a change comes from the event. */
export function evolveTemplate(
  state: TemplateState | null,
  event: { type: string; data: unknown; version: number; occurredAt: string },
): TemplateState | null {
  if (event.type !== ContentEvents.TemplateAdded.type && event.type !== ContentEvents.TemplateUpdated.type)
    return state;
  const s = TemplateSnapshot.parse(event.data);
  return {
    _id: s.templateId,
    heading: s.heading,
    body: s.body,
    image: s.image,
    type: s.type,
    topic: s.topic,
    status: s.status,
    subjects: s.subjects,
    createdAt: s.createdAt,
    updatedAt: event.occurredAt,
    version: event.version,
  };
}

type AddTemplate = { templateId: string; fields: TemplateFields; now: Date; newSubjectId: () => string };
type UpdateTemplate = { changes: Partial<TemplateFields>; newSubjectId: () => string };
export type TemplateCommand = SnapshotCommand<AddTemplate, UpdateTemplate>;

/** A post's stream folds to its latest snapshot. */
export const templateDecider = snapshotDecider({
  evolve: evolveTemplate,
  add: (cmd: AddTemplate) => decideAddTemplate(cmd.fields, cmd),
  update: (state, cmd: UpdateTemplate) => decideUpdateTemplate(state, cmd.changes, cmd),
  notFound: () => notFound(POST_NOT_FOUND),
});
