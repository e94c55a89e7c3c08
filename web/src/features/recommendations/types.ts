/** A recommended post as POST /api/template/recommendations/{id} lists it (our call; reader.md §3 post fields). */
export interface RecommendedPost {
  _id: string;
  heading: string;
  body?: string;
  image?: string;
  type: number;
}
