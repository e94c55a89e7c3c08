import { Link } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { selectSettings } from '../../settings/selectors';
import { feedTabLabels } from '../../settings/wording';
import { feedTabHref } from '../feedRules';
import type { FeedTab } from '../types';

const TABS: FeedTab[] = ['today', 'all', 'liked'];

/** Today's post, All posts, Liked posts (wording from the settings). */
export function FeedTabs({ current }: { current: FeedTab }) {
  const labels = feedTabLabels(useAppSelector(selectSettings));
  return (
    <nav className="feed-tabs" aria-label="Feed">
      {TABS.map((tab) => (
        <Link
          key={tab}
          to={feedTabHref(tab)}
          className="feed-tabs__tab"
          aria-current={tab === current ? 'page' : undefined}
        >
          {labels[tab]}
        </Link>
      ))}
    </nav>
  );
}
