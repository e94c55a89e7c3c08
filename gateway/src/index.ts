export { createGateway, type DevOutbox, type GatewayOptions } from './gateway';
export { buildOpenApiDocument, type OpenApiOptions } from './openapi';
export { serviceReadiness } from './readiness';
