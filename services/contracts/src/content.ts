import { z } from 'zod';
import { Id, LimitQuery, PageQuery } from './common';
import { PromotionSnapshot } from './events-content';
import type { RouteSchemas } from './route-types';

// ── shared pieces ──────────────────────────────────────────────────────────────────────────────────

const ID_PATTERN = /^[0-9a-f]{24}$/;
const Token = z.string().optional().describe('Session token (or send Authorization: Bearer)');
/** A post id in a reader path: anything short; an id that names no post is a 404 'Post not found'. */
export const PostParams = z.object({ id: z.string().min(1).max(100) });
export const ContentIdParams = z.object({ id: Id });
/** Feed calls send it; it is a hint only and never changes what the server sends (DESIGN.md §6). */
const SubscriptionHint = z
  .unknown()
  .optional()
  .describe('Sent by the web app; ignored: the server gates premium bodies by the verified token only');

export const TemplateType = z.union([z.literal(0), z.literal(1)]);
export const SubjectLine = z.object({ id: z.string(), title: z.string(), status: z.boolean() });

// ── topics ─────────────────────────────────────────────────────────────────────────────────────────

export const TopicView = z.object({
  _id: z.string(),
  topic: z.string(),
  /** At most one topic is the default: adding a new default clears the old one. */
  default: z.boolean(),
  createdAt: z.string(),
});
export type TopicView = z.infer<typeof TopicView>;

export const TopicListResponse = z.object({ status: z.literal(true), topics: z.array(TopicView) });

export const AddTopicRequest = z.object({
  token: Token,
  topic: z
    .string({ error: 'Please enter valid topic name' })
    .trim()
    .min(1, 'Please enter valid topic name')
    .max(100, 'Topic name must be 100 characters or less'),
  default: z.boolean({ error: 'default must be true or false' }).default(false),
});
export const AddTopicResponse = z.object({
  status: z.literal(true),
  message: z.string(),
  topic: TopicView,
});

// ── posts as readers get them ─────────────────────────────────────────────────────────────────────

/**
 * A post as a reader receives it (after gatePost): a premium post the reader may not read has no `body`, but
 * `locked: true` and a plain-text `preview` of its first 150 characters. `like` is false when signed out.
 */
export const ReaderPost = z.object({
  _id: z.string(),
  heading: z.string(),
  body: z.string().optional(),
  locked: z.literal(true).optional(),
  preview: z.string().optional(),
  /** /api/media/{id} ('' when the post has none); add ?w=480 or ?w=960 for a card-sized variant. */
  image: z.string(),
  type: TemplateType,
  topic: z.string(),
  createdAt: z.string(),
  totallikes: z.number(),
  totalcomments: z.number(),
  like: z.boolean(),
});
export type ReaderPost = z.infer<typeof ReaderPost>;

export const TopicCount = z.object({ _id: z.string(), count: z.number() });

export const FeedQuery = z.object({
  page: PageQuery,
  limit: LimitQuery(50, 5),
  topicId: z.union([Id, z.literal('')]).optional(),
});
export const FeedRequest = z.object({ token: Token, subscription: SubscriptionHint });
export const FeedResponse = z.object({
  status: z.literal(true),
  /** Active posts only, newest first. */
  templates: z.array(ReaderPost),
  /** Active posts per topic (topics without active posts are left out), whatever the topicId filter. */
  topicCounts: z.array(TopicCount),
  /** Every active post, whatever the topicId filter (the 'All' chip). */
  totalPostsCount: z.number(),
});

export const TodayPostRequest = z.object({
  token: Token,
  event: z
    .string()
    .max(50)
    .optional()
    .describe(
      "Ours: 'continue_reading' when the reader arrived from an e-mail's continue-reading link (reader.md §2 query event); the read is then recorded as type 2",
    ),
});
export const TodayPostResponse = z.object({
  status: z.boolean(),
  /** The same post for the whole calendar day in the reader's time zone; null when there is no active post. */
  template: ReaderPost.nullable(),
  message: z.string(),
});

export const PostRequest = z.object({ token: Token, subscription: SubscriptionHint });
export const PostResponse = z.object({ status: z.literal(true), template: ReaderPost });

export const RecommendationsQuery = z.object({ page: PageQuery, limit: LimitQuery(20, 5) });
export const RecommendationsRequest = z.object({ token: Token });
export const RecommendationsResponse = z.object({
  status: z.literal(true),
  /** Same topic first (newest first), then the others; the post itself and paused posts left out. */
  templates: z.array(ReaderPost),
  hasMore: z.boolean(),
});

// ── posts for admins ──────────────────────────────────────────────────────────────────────────────

/** A subject line as the admin form sends it: a title, or { id?, title, status? } (status true = Active). */
export const SubjectInput = z.union([
  z.string({ error: 'Subject lines must be text' }),
  z.object({
    id: z.string().max(100).optional(),
    title: z.string({ error: 'Subject lines must be text' }),
    status: z.boolean({ error: 'Subject line status must be true or false' }).optional(),
  }),
]);
export type SubjectInput = z.infer<typeof SubjectInput>;

const TemplateTopic = z.string({ error: 'Please select a topic' }).regex(ID_PATTERN, 'Please select a topic');
const Heading = z
  .string({ error: 'Please enter a heading' })
  .trim()
  .min(1, 'Please enter a heading')
  .max(300, 'Heading must be 300 characters or less');
const Body = z
  .string({ error: 'Please enter the body' })
  .trim()
  .min(1, 'Please enter the body')
  .max(50_000, 'Body must be 50000 characters or less');
const TypeInput = z.coerce
  .number({ error: 'Type must be 0 (free) or 1 (premium)' })
  .pipe(z.union([z.literal(0), z.literal(1)], { error: 'Type must be 0 (free) or 1 (premium)' }));
const StatusInput = z.boolean({ error: 'Status must be true (active) or false (paused)' });
const Subjects = z
  .array(SubjectInput, { error: 'Subjects must be a list of subject lines' })
  .max(200, 'A post can have at most 200 subject lines');
/** A data URL of an uploaded image, or the /api/media URL the post already has; '' for none. */
const ImageField = z
  .string({ error: 'The image must be an uploaded image' })
  .max(8_000_000, 'The image must be 5 MB or smaller');

export const AddTemplateRequest = z.object({
  token: Token,
  /** The subject input's text at submit (admin.md §3): added to the subject lines when not blank. */
  subject: z.string().max(1000).optional(),
  subjects: Subjects.default([]),
  heading: Heading,
  image: ImageField.default(''),
  body: Body,
  topic: TemplateTopic,
  status: StatusInput.default(true),
  type: TypeInput.default(0),
});
export type AddTemplateRequest = z.infer<typeof AddTemplateRequest>;

export const TemplateChanges = z.object({
  subject: z.string().max(1000).optional(),
  subjects: Subjects.optional(),
  heading: Heading.optional(),
  image: ImageField.optional(),
  body: Body.optional(),
  topic: TemplateTopic.optional(),
  status: StatusInput.optional(),
  type: TypeInput.optional(),
});
export type TemplateChanges = z.infer<typeof TemplateChanges>;
export const UpdateTemplateRequest = z.object({
  token: Token,
  info: TemplateChanges.describe('The fields to change; absent fields keep their value'),
});

export const SubjectAnalysis = z.object({
  id: z.string(),
  subjectTitle: z.string(),
  subjectStatus: z.enum(['Active', 'Pause']),
  emails_sent: z.number(),
  emails_open: z.number(),
  email_open_rate: z.number(),
});

/** A post as admins see it, with its counters; the e-mail figures read 0 until reminder events exist. */
export const AdminTemplate = z.object({
  _id: z.string(),
  heading: z.string(),
  body: z.string(),
  image: z.string(),
  type: TemplateType,
  topic: z.string(),
  status: z.boolean(),
  subjects: z.array(SubjectLine),
  createdAt: z.string(),
  updatedAt: z.string(),
  totallikes: z.number(),
  totalcomments: z.number(),
  emails_sent: z.number(),
  emails_open: z.number(),
  /** Percentage 0-100 of sent e-mails opened (0 when none sent). */
  email_open_rate: z.number(),
  /** How many times signed-in readers opened the post's body. */
  total_reads: z.number(),
  subjectLevelAnalysis: z.array(SubjectAnalysis).optional(),
});
export type AdminTemplate = z.infer<typeof AdminTemplate>;

export const TemplateListQuery = z.object({ page: PageQuery, limit: LimitQuery(100, 10) });
export const TemplateListResponse = z.object({
  status: z.literal(true),
  total: z.number(),
  data: z.array(AdminTemplate),
});
export const AllTemplatesResponse = z.object({ status: z.literal(true), data: z.array(AdminTemplate) });
export const TemplateResponse = z.object({
  status: z.literal(true),
  template: AdminTemplate,
  message: z.string().optional(),
});

export const GenerateContentRequest = z.object({
  token: Token,
  prompt: z
    .string({ error: 'Please enter a prompt' })
    .trim()
    .min(1, 'Please enter a prompt')
    .max(5000, 'Prompt must be 5000 characters or less'),
  kind: z
    .enum(['body', 'subjects'], { error: "kind must be 'body' or 'subjects'" })
    .default('body')
    .describe(
      "Ours: 'body' (default) prefixes the site's bodypromptprefix, 'subjects' its subjectspromptprefix",
    ),
});
export const GenerateContentResponse = z.object({
  status: z.literal(true),
  /** At most 5000 characters (admin.md §9). */
  content: z.string(),
});

// ── promotions ────────────────────────────────────────────────────────────────────────────────────

const ExpiresInput = z
  .union([z.string(), z.null()], { error: 'Expiry must be a date like 2026-12-31, or blank for never' })
  .refine(
    (value) => value === null || value.trim() === '' || !Number.isNaN(expiryInstant(value.trim())),
    'Expiry must be a date like 2026-12-31, or blank for never',
  );

/** When a promotion's `expires` runs out: a date alone means the end of that day (UTC). NaN when unreadable. */
export function expiryInstant(expires: string): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(expires)) return Date.parse(`${expires}T23:59:59.999Z`);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(expires)) return Number.NaN;
  return Date.parse(expires);
}

const PromotionText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be ${max} characters or less`);

const PromotionFields = {
  image: ImageField,
  imageurl: z.string({ error: 'Image URL must be text' }).max(8_000_000, 'The image must be 5 MB or smaller'),
  heading: z
    .string({ error: 'Please enter a heading' })
    .trim()
    .min(1, 'Please enter a heading')
    .max(150, 'Heading must be 150 characters or less'),
  body: PromotionText('Body', 500),
  btntext: PromotionText('Button text', 100),
  btnurl: PromotionText('Button URL', 2000).refine(
    (value) => isSiteUrl(value),
    'Button URL must be an http(s) URL or a path starting with /',
  ),
  expires: ExpiresInput,
  status: StatusInput,
};

export const AddPromotionRequest = z.object({
  token: Token,
  image: PromotionFields.image.default(''),
  imageurl: PromotionFields.imageurl.default(''),
  heading: PromotionFields.heading,
  body: PromotionFields.body.default(''),
  btntext: PromotionFields.btntext.default(''),
  btnurl: PromotionFields.btnurl.default(''),
  expires: PromotionFields.expires.optional(),
  status: PromotionFields.status.default(true),
});
export type AddPromotionRequest = z.infer<typeof AddPromotionRequest>;

export const PromotionChanges = z.object({
  image: PromotionFields.image.optional(),
  imageurl: PromotionFields.imageurl.optional(),
  heading: PromotionFields.heading.optional(),
  body: PromotionFields.body.optional(),
  btntext: PromotionFields.btntext.optional(),
  btnurl: PromotionFields.btnurl.optional(),
  expires: PromotionFields.expires.optional(),
  status: PromotionFields.status.optional(),
});
export type PromotionChanges = z.infer<typeof PromotionChanges>;
export const UpdatePromotionRequest = z.object({
  token: Token,
  info: PromotionChanges.describe('The fields to change; absent fields keep their value'),
});

/** A promotion as the admin and reader calls return it: its snapshot (events-content.ts) under `_id`. */
export const PromotionView = PromotionSnapshot.omit({ promotionId: true }).extend({
  _id: z.string(),
  updatedAt: z.string(),
});
export type PromotionView = z.infer<typeof PromotionView>;

export const PromotionResponse = z.object({
  status: z.literal(true),
  promotion: PromotionView,
  message: z.string().optional(),
});
export const PromotionListResponse = z.object({ status: z.literal(true), data: z.array(PromotionView) });
export const ActivePromotionsResponse = z.object({
  status: z.literal(true),
  promotions: z.array(
    PromotionView.pick({
      _id: true,
      image: true,
      imageurl: true,
      heading: true,
      body: true,
      btntext: true,
      btnurl: true,
      expires: true,
    }),
  ),
});

// ── site settings ─────────────────────────────────────────────────────────────────────────────────

export const Level = z.object({ title: z.string(), count: z.number() });

const CSS_COLOUR_NAMES = new Set(
  (
    'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown ' +
    'burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan ' +
    'darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid ' +
    'darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet ' +
    'deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ' +
    'ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki ' +
    'lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow ' +
    'lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray ' +
    'lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine ' +
    'mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise ' +
    'mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab ' +
    'orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru ' +
    'pink plum powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown ' +
    'seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan ' +
    'teal thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen transparent'
  ).split(' '),
);

export const isCssColour = (value: string): boolean =>
  /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(value) || CSS_COLOUR_NAMES.has(value.toLowerCase());

/** http(s) URL, or a path on this site ('/aboutus'); '' = none. */
export const isSiteUrl = (value: string): boolean => {
  if (value === '') return true;
  if (value.startsWith('/')) return !value.startsWith('//') && !/[\s\\]/.test(value);
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(max, `${field} must be ${max} characters or less`)
    .nullable()
    .optional();
const colour = (field: string) =>
  z
    .string({ error: `${field} must be a colour like #ff0000 or a CSS colour name` })
    .trim()
    .refine(isCssColour, `${field} must be a colour like #ff0000 or a CSS colour name`)
    .nullable()
    .optional();
const font = (field: string) =>
  z
    .string({ error: `${field} must be a font name` })
    .trim()
    .min(1, `${field} must be a font name`)
    .max(100, `${field} must be 100 characters or less`)
    // The web app writes fonts into CSS custom properties: nothing that could end the declaration.
    .refine((v) => !/[;{}<>\\]/.test(v), `${field} must be a font name (no ; { } < > or \\)`)
    .nullable()
    .optional();
const url = (field: string) =>
  z
    .string({ error: `${field} must be an http(s) URL or a path starting with /` })
    .trim()
    .max(2000, `${field} must be 2000 characters or less`)
    .refine(isSiteUrl, `${field} must be an http(s) URL or a path starting with /`)
    .nullable()
    .optional();
const flag = (field: string) =>
  z
    .boolean({ error: `${field} must be true or false` })
    .nullable()
    .optional();

/**
 * How long the web telemetry (the analytics events the web sends: page visits, clicks) is kept, in days (our setting:
 * reporting deletes older ones). The readers' domain activity (sign-ins, reads, answers) is not telemetry: it stays.
 */
export const WEB_EVENT_RETENTION_DAYS_DEFAULT = 365;
export const WEB_EVENT_RETENTION_DAYS_MAX = 3650;
const retentionMessage = `webeventretentiondays must be a whole number of days from 1 to ${WEB_EVENT_RETENTION_DAYS_MAX}`;
const retentionDays = z
  .number({ error: retentionMessage })
  .int(retentionMessage)
  .min(1, retentionMessage)
  .max(WEB_EVENT_RETENTION_DAYS_MAX, retentionMessage);

const LevelInput = z.object({
  title: z
    .string({ error: 'Level title must not be blank' })
    .trim()
    .min(1, 'Level title must not be blank')
    .max(100, 'Level title must be 100 characters or less'),
  count: z
    .number({ error: 'Level count must be a whole number, 0 or more' })
    .int('Level count must be a whole number, 0 or more')
    .min(0, 'Level count must be a whole number, 0 or more'),
});
const LevelsInput = z
  .array(LevelInput, { error: 'levels must be a list of { title, count }' })
  .min(1, 'You must have at least one level!')
  .max(100, 'Levels: at most 100')
  .superRefine((levels, ctx) => {
    const seen = new Set<number>();
    for (const [i, level] of levels.entries()) {
      if (seen.has(level.count))
        ctx.addIssue({
          code: 'custom',
          message: 'A level with this count already exists!',
          path: [i, 'count'],
        });
      seen.add(level.count);
    }
  })
  .transform((levels) => [...levels].sort((a, b) => a.count - b.count))
  .nullable()
  .optional();

/**
 * Every site setting of both specs (reader.md §3, admin.md §3) with its validation. A field set to null goes back
 * to its default; absent fields keep their stored value; unknown keys are refused.
 */
export const SiteSettingsInput = z.strictObject(
  {
    sitetitle: text('sitetitle', 200),
    footersitetitle: text('footersitetitle', 200),
    subjectprefix: text('subjectprefix', 200),
    postsingular: text('postsingular', 50),
    postplural: text('postplural', 50),
    emailupdateheadline: text('emailupdateheadline', 500),
    loginheadline: text('loginheadline', 500),
    loginpitch: text('loginpitch', 1000),
    commentsheading: text('commentsheading', 200),
    commentsbutton: text('commentsbutton', 100),
    recommendationheading: text('recommendationheading', 200),
    authmodalheading: text('authmodalheading', 200),
    authmodalsigninbutton: text('authmodalsigninbutton', 100),
    authmodalgooglebutton: text('authmodalgooglebutton', 100),
    topscoretext: text('topscoretext', 200),
    bodypromptprefix: text('bodypromptprefix', 5000),
    subjectspromptprefix: text('subjectspromptprefix', 5000),
    headingcolor: colour('headingcolor'),
    paragraphcolor: colour('paragraphcolor'),
    buttonfontcolor: colour('buttonfontcolor'),
    backgroundcolor: colour('backgroundcolor'),
    buttoncolor: colour('buttoncolor'),
    defaultfontcolor: colour('defaultfontcolor'),
    inputbordercolor: colour('inputbordercolor'),
    headingfont: font('headingfont'),
    paragraphfont: font('paragraphfont'),
    defaultfont: font('defaultfont'),
    logo: url('logo'),
    emaillogo: url('emaillogo'),
    favicon: url('favicon'),
    loginimage: url('loginimage'),
    frontendurl: url('frontendurl'),
    frontendshorturl: url('frontendshorturl'),
    instagramurl: url('instagramurl'),
    aboutpage: url('aboutpage'),
    trackingid: text('trackingid', 200),
    clarityid: text('clarityid', 200),
    posthoghost: text('posthoghost', 200),
    posthogkey: text('posthogkey', 200),
    logoutredirect: z
      .enum(['feed', 'login'], { error: 'logoutredirect must be feed or login' })
      .nullable()
      .optional(),
    googleauth: flag('googleauth'),
    subscription: flag('subscription'),
    recommendation: flag('recommendation'),
    emailrecommendation: flag('emailrecommendation'),
    emailcheckin: flag('emailcheckin'),
    emailfullpost: flag('emailfullpost'),
    isCommentsVisible: flag('isCommentsVisible'),
    levels: LevelsInput,
    webeventretentiondays: retentionDays.nullable().optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `Unknown setting: ${issue.keys.join(', ')}` : undefined,
  },
);
export type SiteSettingsInput = z.infer<typeof SiteSettingsInput>;

/** The settings as fetch answers them: every field filled (stored values over the defaults). */
export const SiteSettings = z.object({
  sitetitle: z.string(),
  footersitetitle: z.string(),
  subjectprefix: z.string(),
  postsingular: z.string(),
  postplural: z.string(),
  emailupdateheadline: z.string(),
  loginheadline: z.string(),
  /** What the service is, under the headline on the signed-out home (our addition). */
  loginpitch: z.string(),
  commentsheading: z.string(),
  commentsbutton: z.string(),
  recommendationheading: z.string(),
  authmodalheading: z.string(),
  authmodalsigninbutton: z.string(),
  authmodalgooglebutton: z.string(),
  topscoretext: z.string(),
  bodypromptprefix: z.string(),
  subjectspromptprefix: z.string(),
  headingcolor: z.string(),
  paragraphcolor: z.string(),
  buttonfontcolor: z.string(),
  backgroundcolor: z.string(),
  buttoncolor: z.string(),
  defaultfontcolor: z.string(),
  inputbordercolor: z.string(),
  headingfont: z.string(),
  paragraphfont: z.string(),
  defaultfont: z.string(),
  logo: z.string(),
  emaillogo: z.string(),
  favicon: z.string(),
  loginimage: z.string(),
  frontendurl: z.string(),
  frontendshorturl: z.string(),
  instagramurl: z.string(),
  aboutpage: z.string(),
  trackingid: z.string(),
  clarityid: z.string(),
  posthoghost: z.string(),
  posthogkey: z.string(),
  logoutredirect: z.enum(['feed', 'login']),
  googleauth: z.boolean(),
  subscription: z.boolean(),
  recommendation: z.boolean(),
  emailrecommendation: z.boolean(),
  emailcheckin: z.boolean(),
  /** The reminder e-mail carries the whole post (true) or its first lines and 'Continue reading' (false). */
  emailfullpost: z.boolean(),
  isCommentsVisible: z.boolean(),
  /** Sorted ascending by count. */
  levels: z.array(Level),
  /** Days the web telemetry is kept (reporting deletes older events). */
  webeventretentiondays: z.number().int(),
});
export type SiteSettings = z.infer<typeof SiteSettings>;

export const UpdateSiteSettingsRequest = z.object({
  token: Token,
  settings: SiteSettingsInput,
});
export const SiteSettingsResponse = z.object({ status: z.literal(true), settings: SiteSettings });

// ── media ─────────────────────────────────────────────────────────────────────────────────────────

export const MediaParams = z.object({ id: z.string().min(1).max(100) });
export const MediaQuery = z.object({
  w: z
    .enum(['480', '960'], { error: 'w must be 480 or 960' })
    .optional()
    .describe('Width of a resized WebP variant (never enlarged); absent = the original'),
});

/** Request and response schemas of the content service's /api routes (topics, posts, feed, promotions, site settings, AI writer, media). */
export const CONTENT_SCHEMAS: RouteSchemas = {
  'GET /api/topic/getalltopics': { response: TopicListResponse },
  'POST /api/topic/add': { body: AddTopicRequest, response: AddTopicResponse },
  'POST /api/logs/getallpost': { query: FeedQuery, body: FeedRequest, response: FeedResponse },
  'POST /api/logs/gettodaypost': { body: TodayPostRequest, response: TodayPostResponse },
  'POST /api/template/generate-content': { body: GenerateContentRequest, response: GenerateContentResponse },
  'POST /api/template/add': { body: AddTemplateRequest, response: TemplateResponse },
  'GET /api/template/templates': { query: TemplateListQuery, response: TemplateListResponse },
  'GET /api/template/alltemplates': { response: AllTemplatesResponse },
  'GET /api/template/allsubjecttemplates': { response: AllTemplatesResponse },
  'GET /api/template/details/:id': { params: ContentIdParams, response: TemplateResponse },
  'POST /api/template/update/:id': {
    params: ContentIdParams,
    body: UpdateTemplateRequest,
    response: TemplateResponse,
  },
  'POST /api/template/recommendations/:id': {
    params: PostParams,
    query: RecommendationsQuery,
    body: RecommendationsRequest,
    response: RecommendationsResponse,
  },
  'POST /api/template/:id': { params: PostParams, body: PostRequest, response: PostResponse },
  'GET /api/promotion/all': { response: PromotionListResponse },
  'GET /api/promotion/active': { response: ActivePromotionsResponse },
  'POST /api/promotion/add': { body: AddPromotionRequest, response: PromotionResponse },
  'GET /api/promotion/details/:id': { params: ContentIdParams, response: PromotionResponse },
  'POST /api/promotion/update/:id': {
    params: ContentIdParams,
    body: UpdatePromotionRequest,
    response: PromotionResponse,
  },
  'GET /api/sitesettings/fetch': { response: SiteSettingsResponse },
  'PUT /api/sitesettings/update': { body: UpdateSiteSettingsRequest, response: SiteSettingsResponse },
  'GET /api/media/:id': { params: MediaParams, query: MediaQuery, produces: 'image/*' },
};
