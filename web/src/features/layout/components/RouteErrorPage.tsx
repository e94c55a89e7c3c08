import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return error.statusText || `Error ${error.status}`;
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Something went wrong.';
}

/** The router's fallback when a page throws (reader.md §8). Rendered outside the app frame. */
export function RouteErrorPage() {
  const error = useRouteError();
  return (
    <main className="centred-message">
      <h1>Unexpected Application Error!</h1>
      <p>{describe(error)}</p>
      <a href="/" className="button">
        Back to Home Page
      </a>
    </main>
  );
}
