/** A post (template) as the feed calls return it (reader.md §3); the content service's contract is not written yet. */
export interface FeedPost {
  _id: string;
  heading: string;
  /** Absent when the reader may not read the post (premium): `locked` is then true and `preview` holds its start. */
  body?: string;
  locked?: boolean;
  preview?: string;
  image?: string;
  /** 0 free, 1 premium (2 appears in history). */
  type: number;
  topic?: string;
  totallikes?: number;
  like?: boolean;
  totalcomments?: number;
}

export type FeedTab = 'today' | 'all' | 'liked';
