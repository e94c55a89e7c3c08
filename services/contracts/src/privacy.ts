import { z } from 'zod';

export * from './privacy-rules';

/** The sign-up's answer to "I am at least 16": only `true` lets a new reader complete their profile. */
export const AgeConfirmed = z.boolean({ error: 'ageConfirmed must be true or false' });
