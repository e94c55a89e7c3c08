import { Link } from 'react-router-dom';

export function NotFoundPage() {
  return (
    <div className="centred-message">
      <h1>404 Not Found!</h1>
      <Link to="/" className="button">
        Back to Home Page
      </Link>
    </div>
  );
}
