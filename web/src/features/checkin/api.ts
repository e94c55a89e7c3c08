import { apiRequest } from '../../shared/http';
import { type CheckinQuery, checkinPath } from './checkinRules';

/** POST /api/checkin?qlid={qlid}&a={a} with no body; the answer is mapped by checkinResult. */
export const answerCheckin = (query: CheckinQuery) => apiRequest<unknown>('POST', checkinPath(query));
