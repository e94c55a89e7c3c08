/** The browser's IANA time zone, sent with verify and update so reminders go out at local time. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

function zoneName(timeZone: string, style: 'longGeneric' | 'long' | 'shortOffset', at: Date): string {
  return (
    new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: style })
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value ?? ''
  );
}

/**
 * A time zone as a reader knows it: 'India Standard Time (GMT+5:30)' for Asia/Calcutta, 'Eastern Time (GMT-5)' for
 * America/New_York, never the raw IANA name. A zone the browser does not know is given back as it is.
 */
export function friendlyTimeZone(timeZone: string, at: Date = new Date()): string {
  try {
    const offset = zoneName(timeZone, 'shortOffset', at);
    const name = [zoneName(timeZone, 'longGeneric', at), zoneName(timeZone, 'long', at)].find(
      (candidate) => candidate && !candidate.startsWith('GMT'),
    );
    return name ? `${name} (${offset})` : offset;
  } catch {
    return timeZone;
  }
}

/** The hint under a reminder-time picker: the chosen time in the reader's own zone, named as people say it. */
export function reminderTimeHint(time: string, timeZone: string | undefined): string {
  return timeZone
    ? `Your reminder comes at ${time}, ${friendlyTimeZone(timeZone)}: the time where you are now.`
    : `Your reminder comes at ${time} in your local time.`;
}

/** 'HH:MM' now in a time zone (24-hour clock). */
export function localClock(timeZone: string, at: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('hour')}:${part('minute')}`;
}
