/**
 * A post (template) as POST /api/template/{id} returns it (reader.md §3, §7). The server decides gating: a premium
 * post the reader may not read comes without its body, with `locked: true` and perhaps a `preview` instead.
 */
export interface PostDetail {
  _id: string;
  heading: string;
  body?: string;
  image?: string;
  /** 0 free, 1 premium (2 appears in history). */
  type: number;
  topic?: string;
  totallikes?: number;
  like?: boolean;
  totalcomments?: number;
  locked?: boolean;
  preview?: string;
}

export type PostAction = 'like' | 'share';
