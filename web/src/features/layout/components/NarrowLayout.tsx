import type { ReactNode } from 'react';

/** reader.md §2: the reader's narrow column, at most 450px wide. */
export function NarrowLayout({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={className ? `narrow ${className}` : 'narrow'}>{children}</div>;
}
