/**
 * Link previews for shared posts: `/post/{id}` answers crawlers (and browsers) with the HTML shell plus Open Graph
 * and Twitter card tags: the heading, the preview text, the image and the site title. The post is read from the
 * content service as a signed-out visitor would read it, so a premium post gives only its public preview (its
 * body never leaves the service to a visitor). Anything that fails leaves the plain shell.
 */

import { escapeHtml, plainText } from '@nudge/contracts';

const POST_PATH = /^\/post\/([A-Za-z0-9_-]{1,64})\/?$/;
const FETCH_TIMEOUT_MS = 1500;
const DESCRIPTION_LENGTH = 200;
const SETTINGS_TTL_MS = 60_000;

export interface LinkPreview {
  title: string;
  description: string;
  image: string | null;
  siteTitle: string;
  url: string;
}

/** Plain text from a post body (which may hold simple HTML), squeezed to one line and cut at a word. */
export function previewText(text: string, max = DESCRIPTION_LENGTH): string {
  const plain = plainText(text);
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The meta tags for a preview (every value escaped), and the page title. */
export function previewTags(preview: LinkPreview): string {
  const meta = (attr: 'property' | 'name', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
  const tags = [
    meta('property', 'og:type', 'article'),
    meta('property', 'og:site_name', preview.siteTitle),
    meta('property', 'og:title', preview.title),
    meta('property', 'og:description', preview.description),
    meta('property', 'og:url', preview.url),
    meta('name', 'twitter:card', preview.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', preview.title),
    meta('name', 'twitter:description', preview.description),
    meta('name', 'description', preview.description),
  ];
  if (preview.image) {
    tags.push(meta('property', 'og:image', preview.image), meta('name', 'twitter:image', preview.image));
  }
  return tags.join('\n    ');
}

/** The shell with the preview: our tags replace its description and title. */
export function withPreview(html: string, preview: LinkPreview): string {
  const title = `<title>${escapeHtml(`${preview.title} | ${preview.siteTitle}`)}</title>`;
  const stripped = html
    .replace(/<meta name="description"[^>]*>\s*/i, '')
    .replace(/<title>[^<]*<\/title>/i, '');
  return stripped.replace(/<\/head>/i, `  ${previewTags(preview)}\n    ${title}\n  </head>`);
}

async function getJson(url: string, init: RequestInit): Promise<Record<string, unknown> | null> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!res.ok) return null;
  const body = (await res.json()) as unknown;
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : null;
}

/**
 * Reads posts and the site title from the content service at `contentUrl` (the title cached for a minute). Page and
 * image URLs are made absolute on `publicUrl` (PUBLIC_URL), never on the request's Host header: a client cannot make
 * a shared post's card point at a site of its choosing.
 */
export function createLinkPreviews(contentUrl: () => string | undefined, publicUrl: string) {
  const origin = publicUrl.replace(/\/+$/, '');
  let settings: { at: number; title: string; image: string } | null = null;

  async function siteSettings(base: string) {
    if (settings && Date.now() - settings.at < SETTINGS_TTL_MS) return settings;
    const body = await getJson(`${base}/api/sitesettings/fetch`, {}).catch(() => null);
    const s = (body?.settings ?? {}) as Record<string, unknown>;
    settings = {
      at: Date.now(),
      title: typeof s.sitetitle === 'string' && s.sitetitle.trim() ? s.sitetitle : 'Nudge',
      image: typeof s.loginimage === 'string' ? s.loginimage : '',
    };
    return settings;
  }

  /** The preview of `path` when it is a post that exists, else null. */
  return async function previewFor(path: string): Promise<LinkPreview | null> {
    const match = POST_PATH.exec(path);
    const base = contentUrl();
    if (!match?.[1] || !base) return null;
    const id = match[1];
    const body = await getJson(`${base}/api/template/${id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    }).catch(() => null);
    const post = body?.template as Record<string, unknown> | undefined;
    if (!post || typeof post.heading !== 'string') return null;
    const site = await siteSettings(base);
    // A visitor's view: a premium post has no body here, only the gated preview (never the whole body).
    const text =
      typeof post.body === 'string' ? post.body : typeof post.preview === 'string' ? post.preview : '';
    const absolute = (src: unknown): string | null => {
      if (typeof src !== 'string' || !src.trim() || src.startsWith('data:')) return null;
      try {
        const url = new URL(src, `${origin}/`);
        return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
      } catch {
        return null;
      }
    };
    return {
      title: post.heading,
      description: previewText(text) || `A ${post.type === 1 ? 'premium ' : ''}post on ${site.title}.`,
      // Uploaded images are data: URLs, which crawlers cannot fetch: the site's own picture stands in.
      image: absolute(post.image) ?? absolute(site.image),
      siteTitle: site.title,
      url: `${origin}/post/${id}`,
    };
  };
}
