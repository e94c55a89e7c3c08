/** A topic as GET /api/topic/getalltopics lists it (reader.md §3). */
export interface Topic {
  _id: string;
  topic: string;
}
