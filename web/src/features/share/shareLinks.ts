// The share menu's links (reader.md §2 'Share menu: Copy link, Email, Whatsapp'; §8 'Link copied to clipboard'). Pure.

export const LINK_COPIED = 'Link copied to clipboard';
/** Our words when the browser refuses to copy (the spec gives none). */
export const COPY_FAILED = "The link couldn't be copied. Please copy it from the address bar.";

/** The full address of a post page. */
export const postUrl = (origin: string, postId: string): string =>
  `${origin.replace(/\/+$/, '')}/post/${encodeURIComponent(postId)}`;

/** The text sent with a link: the title, then the link on its own line (or only the link when there is no title). */
export const shareText = (url: string, title: string): string => {
  const heading = title.trim();
  return heading ? `${heading}\n${url}` : url;
};

/** Email: a mailto: link with the title as subject and the title and link as body. */
export const emailShareHref = (url: string, title: string): string => {
  const subject = title.trim();
  const query = [
    ...(subject ? [`subject=${encodeURIComponent(subject)}`] : []),
    `body=${encodeURIComponent(shareText(url, title))}`,
  ];
  return `mailto:?${query.join('&')}`;
};

/** Whatsapp: https://wa.me/?text= with the title and link. */
export const whatsAppShareHref = (url: string, title: string): string =>
  `https://wa.me/?text=${encodeURIComponent(shareText(url, title))}`;
