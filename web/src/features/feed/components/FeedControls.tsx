import { Link } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { selectIsLogin, selectUser } from '../../auth/selectors';
import { selectSettings } from '../../settings/selectors';
import { CurrencyToggle } from '../../subscription/components/CurrencyToggle';
import { pricePerYearLabel } from '../../subscription/pricing';
import { selectCurrency } from '../../subscription/selectors';
import { NotificationToggle } from './NotificationToggle';

/**
 * The feed's two toggles (reader.md §2): the daily reminder on/paused (signed-in readers), and the INR/USD
 * currency toggle with the Premium price it switches (when the subscription setting is on and the reader is not
 * premium yet).
 */
export function FeedControls() {
  const isLogin = useAppSelector(selectIsLogin);
  const user = useAppSelector(selectUser);
  const currency = useAppSelector(selectCurrency);
  const { subscription } = useAppSelector(selectSettings);
  const showCurrency = subscription && (!user || user.role === 'user');
  if (!isLogin && !showCurrency) return null;
  return (
    <div className="feed-controls">
      {isLogin && <NotificationToggle />}
      {showCurrency && (
        <div className="feed-controls__premium">
          <span className="feed-controls__price">
            <Link to="/upgrade">Premium</Link> {pricePerYearLabel(currency)}
          </span>
          <CurrencyToggle />
        </div>
      )}
    </div>
  );
}
