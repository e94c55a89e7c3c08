import { Link } from 'react-router-dom';

/** The link to the Terms and Privacy page (/terms). */
export function TermsLink({ className }: { className?: string }) {
  return (
    <Link to="/terms" className={className}>
      Terms and Privacy
    </Link>
  );
}
