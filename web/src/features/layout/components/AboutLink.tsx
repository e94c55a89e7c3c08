import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { isAppPath, safeUrl } from '../../../shared/safeUrl';
import { selectSettings } from '../../settings/selectors';

/** A link to the About page: /aboutus, or wherever the aboutpage setting points. */
export function AboutLink({
  className,
  onClick,
  children = 'About Us',
}: {
  className?: string;
  onClick?: () => void;
  children?: ReactNode;
}) {
  const { aboutpage } = useAppSelector(selectSettings);
  const target = safeUrl(aboutpage) ?? '/aboutus';
  if (isAppPath(target))
    return (
      <Link to={target} className={className} onClick={onClick}>
        {children}
      </Link>
    );
  return (
    <a href={target} className={className} onClick={onClick}>
      {children}
    </a>
  );
}
