import { useAppSelector } from '../../../app/hooks';
import { selectSettings } from '../../settings/selectors';
import { Spinner } from '../../ui/components/Spinner';
import { emptyFeedText } from '../feedRules';
import { selectFeed } from '../selectors';
import type { FeedTab } from '../types';
import { PostCard } from './PostCard';

/** The posts of the current tab, or why there are none. */
export function PostList({ tab }: { tab: FeedTab }) {
  const { status, posts, failure } = useAppSelector(selectFeed);
  const { postplural } = useAppSelector(selectSettings);

  if (status === 'idle' || status === 'loading')
    return (
      <div className="inline-status" role="status">
        <Spinner size={28} />
        <span className="visually-hidden">Loading {postplural}…</span>
      </div>
    );
  if (status === 'failed') return <p className="muted feed-notice">{failure}</p>;
  if (posts.length === 0) return <p className="muted feed-notice">{emptyFeedText(tab, postplural)}</p>;
  return (
    <div className="post-list">
      {posts.map((post) => (
        <PostCard key={post._id} post={post} />
      ))}
    </div>
  );
}
