import { type Logger, pino } from 'pino';
import { currentRequestId } from './context';

export type { Logger };

/** pino with the current request id mixed into every line. */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name,
    level,
    mixin() {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
    redact: { paths: ['req.headers.authorization', 'token', '*.token', 'otp', '*.otp'], remove: true },
  });
}
