import type { NotificationDetailsResponse } from '../../shared/contracts';
import { apiRequest } from '../../shared/http';

export const fetchNotificationDetails = (id: string) =>
  apiRequest<NotificationDetailsResponse>(
    'GET',
    `/api/user/getnotificationdetails/${encodeURIComponent(id)}`,
  );

/** One call toggles subscribed / unsubscribed and returns the new state. */
export const toggleNotifications = (id: string) =>
  apiRequest<NotificationDetailsResponse>(
    'PUT',
    `/api/user/updatenotificationdetails/${encodeURIComponent(id)}`,
  );
