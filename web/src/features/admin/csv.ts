import { EVENT_LOG_CSV_COLUMNS, toCsv } from '@nudge/contracts/csv';

/** admin.md §7: CheckIns.csv's columns. */
export const CHECKIN_CSV_HEADERS = ['Id', 'Body', 'Order', 'Scale', 'Tags', 'Status', 'Created On'];

export function checkinsCsv(
  questions: Array<{
    _id: string;
    body: string;
    order: number;
    scale: string;
    tags: string[];
    status: boolean;
    createdAt: string;
  }>,
): string {
  return toCsv(
    CHECKIN_CSV_HEADERS,
    questions.map((q) => [
      q._id,
      q.body,
      q.order,
      q.scale,
      q.tags.join(', '),
      q.status ? 'Active' : 'Paused',
      q.createdAt,
    ]),
  );
}

/**
 * EventLogs.csv from POST /api/eventlogs/alllogs: the reporting service streams the CSV itself; an answer in the
 * spec's JSON form ({ data: [...] }) is written with the same columns.
 */
export function eventLogsCsv(answer: string): string {
  if (!answer.trimStart().startsWith('{')) return answer;
  const parsed = JSON.parse(answer) as {
    data?: Array<{
      _id: string;
      userId: string;
      userEmail: string;
      eventType: string;
      eventValue: string;
      createdAt: string;
    }>;
  };
  return toCsv(
    EVENT_LOG_CSV_COLUMNS,
    (parsed.data ?? []).map((e) => [e._id, e.userId, e.userEmail, e.eventType, e.eventValue, e.createdAt]),
  );
}
