import { Link, useLocation } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { safeImageUrl } from '../../../shared/safeUrl';
import { selectIsLogin, selectUser } from '../../auth/selectors';
import { selectSettings } from '../../settings/selectors';
import { UserMenu } from './UserMenu';

export function Header() {
  const { sitetitle, logo } = useAppSelector(selectSettings);
  const isLogin = useAppSelector(selectIsLogin);
  const user = useAppSelector(selectUser);
  const { pathname } = useLocation();
  const logoUrl = safeImageUrl(logo);

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link to="/" className="brand">
          {logoUrl ? <img src={logoUrl} alt={sitetitle} className="brand__logo" /> : sitetitle}
        </Link>
        {isLogin && user ? (
          <UserMenu email={user.email} />
        ) : (
          pathname === '/' && (
            <Link to="/login" className="button button--small">
              Login
            </Link>
          )
        )}
      </div>
    </header>
  );
}
