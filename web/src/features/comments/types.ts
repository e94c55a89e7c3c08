/** A comment as GET /api/comment/comments/{templateId} lists it (reader.md §3). */
export interface PostComment {
  _id: string;
  message: string;
  createdAt: string;
  userDetails?: { email?: string; firstname?: string; lastname?: string } | null;
  /** Set by the server from the caller's session: the signed-in reader wrote this comment. */
  mine?: boolean;
}
