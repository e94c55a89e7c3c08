import type { ReactNode } from 'react';

/** reader.md §2: the reader's narrow column, at most 450px wide. */
export function NarrowLayout({ children }: { children: ReactNode }) {
  return <div className="narrow">{children}</div>;
}
