import type { RouteSchemas } from './route-types';

/** Request and response schemas of the billing service's /api routes (checkout, webhook, subscription, payments, transactions). */
export const BILLING_SCHEMAS: RouteSchemas = {};
