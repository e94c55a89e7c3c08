import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { safeImageUrl } from '../../../shared/safeUrl';
import { readingTime } from '../../post/readingTime';
import { cardPreview } from '../../progress/preview';
import { ShareMenu } from '../../share/components/ShareMenu';
import { postUrl } from '../../share/shareLinks';
import { plainText } from '../feedRules';
import { selectFeed } from '../selectors';
import type { FeedPost } from '../types';

const PREMIUM = 1;
/** Under a premium post the reader cannot open yet: it is a preview, said in words. */
export const TEASER_TEXT = 'Preview: premium readers get the full post.';

/**
 * A feed card: image, Premium badge, heading and the first 150 characters of the body (or of the
 * server's preview, for a premium post the reader may not read), opening /post/{id};
 * the share menu sits under it, outside the link.
 */
export function PostCard({ post }: { post: FeedPost }) {
  const [imageFailed, setImageFailed] = useState(false);
  const image = safeImageUrl(post.image);
  const topic = useAppSelector(selectFeed).topics.find((t) => t._id === post.topic)?.topic;
  const meta = [topic, readingTime(post.body)].filter(Boolean).join(' · ');
  return (
    <article className="post-card">
      <Link to={`/post/${encodeURIComponent(post._id)}`} className="post-card__link">
        {image && !imageFailed && (
          <img
            className="post-card__image"
            src={image}
            alt=""
            loading="lazy"
            onError={() => setImageFailed(true)}
          />
        )}
        <div className="post-card__body">
          {post.type === PREMIUM && <span className="badge badge--premium">Premium</span>}
          {meta && <p className="post-card__meta">{meta}</p>}
          <h2 className="post-card__heading">{post.heading}</h2>
          <p className="post-card__preview">{cardPreview(plainText(post.body ?? post.preview))}</p>
          {post.locked && <p className="post-card__teaser">{TEASER_TEXT}</p>}
        </div>
      </Link>
      <div className="post-card__actions">
        <ShareMenu url={postUrl(window.location.origin, post._id)} title={post.heading} placement="up" />
      </div>
    </article>
  );
}
