const STEP_MINUTES = 15;
const pad = (n: number) => String(n).padStart(2, '0');

/** reader.md §5: every 15 minutes from 00:00 to 23:45 ('HH:MM'). */
export function notificationTimeOptions(): string[] {
  const times: string[] = [];
  for (let minutes = 0; minutes < 24 * 60; minutes += STEP_MINUTES) {
    times.push(`${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`);
  }
  return times;
}

export const DEFAULT_NOTIFICATION_TIME = '08:00';
