/** A recommended post as POST /api/template/recommendations/{id} lists it (our call; reader.md §3 post fields). */
export interface RecommendedPost {
  _id: string;
  heading: string;
  body?: string;
  /** The start of a premium post's body, for readers who may not read it (the body is then absent). */
  preview?: string;
  image?: string;
  type: number;
}
