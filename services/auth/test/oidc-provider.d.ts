// oidc-provider ships no type declarations; this is the small part of its surface the Google sign-in tests use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface OidcAccount {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  export interface OidcClientMetadata {
    client_id: string;
    client_secret?: string;
    redirect_uris: string[];
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
  }

  export interface OidcConfiguration {
    clients?: OidcClientMetadata[];
    findAccount?(ctx: unknown, sub: string): Promise<OidcAccount | undefined> | OidcAccount | undefined;
    claims?: Record<string, string[] | null>;
    conformIdTokenClaims?: boolean;
    pkce?: { required?(ctx: unknown, client: unknown): boolean };
    features?: Record<string, { enabled: boolean }>;
    cookies?: { keys?: string[] };
    [key: string]: unknown;
  }

  export class Provider {
    constructor(issuer: string, configuration?: OidcConfiguration);
    readonly issuer: string;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export default Provider;
}
