/**
 * Test harness for Google sign-in: a local OpenID provider (oidc-provider with its dev interactions) and a tiny
 * "browser" (fetch with manual redirects and a cookie jar) that clicks through the provider's login and consent pages.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
}

/** An http server on 127.0.0.1, port 0, whose handler is attached once its URL is known. */
export interface LateServer {
  url: string;
  setHandler(handler: RequestListener): void;
  close(): Promise<void>;
}

export async function startLateServer(): Promise<LateServer> {
  let handler: RequestListener | undefined;
  const server: Server = createServer((req, res) => {
    if (handler) return handler(req, res);
    res.statusCode = 503;
    res.end('not ready');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setHandler(h) {
      handler = h;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

export interface TestProvider {
  issuer: string;
  close(): Promise<void>;
}

/** oidc-provider on an http issuer with one confidential client that must use PKCE. */
export async function startTestProvider(options: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  accounts: Record<string, TestAccount>;
}): Promise<TestProvider> {
  const server = await startLateServer();
  const provider = new Provider(server.url, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    pkce: { required: () => true },
    // Put the requested claims in the ID token (as Google does) rather than only at the userinfo endpoint.
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name'],
    },
    cookies: { keys: ['test-cookie-signing-key'] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, sub: string) {
      const account = options.accounts[sub];
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ sub, ...account }) };
    },
  });
  server.setHandler(provider.callback());
  return { issuer: server.url, close: () => server.close() };
}

interface StoredCookie {
  name: string;
  value: string;
  host: string;
  path: string;
}

/** A browser-like cookie jar: cookies belong to a host (any port, as browsers do) and a path prefix. */
export class CookieJar {
  private cookies: StoredCookie[] = [];

  store(url: URL, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let path = defaultPath(url);
      let expired = false;
      for (const attribute of attributes) {
        const [key = '', ...rest] = attribute.split('=');
        const attrValue = rest.join('=').trim();
        switch (key.trim().toLowerCase()) {
          case 'path':
            if (attrValue.startsWith('/')) path = attrValue;
            break;
          case 'max-age':
            if (Number(attrValue) <= 0) expired = true;
            break;
          case 'expires':
            if (Date.parse(attrValue) <= Date.now()) expired = true;
            break;
        }
      }
      this.cookies = this.cookies.filter(
        (c) => !(c.name === name && c.host === url.hostname && c.path === path),
      );
      if (!expired) this.cookies.push({ name, value, host: url.hostname, path });
    }
  }

  header(url: URL): string {
    return this.cookies
      .filter((c) => c.host === url.hostname && pathMatches(url.pathname, c.path))
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  get(name: string): string | undefined {
    return this.cookies.find((c) => c.name === name)?.value;
  }
}

function defaultPath(url: URL): string {
  const slash = url.pathname.lastIndexOf('/');
  return slash <= 0 ? '/' : url.pathname.slice(0, slash);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/** One request the way a browser makes it: cookies from the jar, redirects not followed, Set-Cookie kept. */
export async function request(
  jar: CookieJar,
  url: string | URL,
  init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Response> {
  const target = new URL(url);
  const headers: Record<string, string> = { ...init.headers };
  const cookie = jar.header(target);
  if (cookie && !headers.cookie) headers.cookie = cookie;
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const response = await fetch(target, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    redirect: 'manual',
  });
  jar.store(target, response);
  return response;
}

export function locationOf(response: Response, base: string | URL): URL {
  const location = response.headers.get('location');
  if (!location) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location, base);
}

/** Follows redirects (GET) until one points at a URL for which `stop` is true, which is returned unvisited. */
async function followUntil(
  jar: CookieJar,
  start: URL,
  stop: (url: URL) => boolean,
): Promise<{ url: URL; page?: string }> {
  let url = start;
  for (let hops = 0; hops < 20; hops++) {
    if (stop(url)) return { url };
    const response = await request(jar, url);
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      url = locationOf(response, url);
      continue;
    }
    const page = await response.text();
    if (response.status !== 200)
      throw new Error(`unexpected ${response.status} at ${url.href}: ${page.slice(0, 300)}`);
    return { url, page };
  }
  throw new Error('too many redirects');
}

function unescapeHtml(value: string): string {
  return value
    .replace(/&#x2F;/gi, '/')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function formAction(page: string, pageUrl: URL): URL {
  const match = /<form[^>]*action="([^"]+)"/.exec(page);
  if (!match?.[1]) throw new Error(`no form on the page: ${page.slice(0, 300)}`);
  return new URL(unescapeHtml(match[1]), pageUrl);
}

function abortLink(page: string, pageUrl: URL): URL {
  const match = /href="([^"]*\/abort)"/.exec(page);
  if (!match?.[1]) throw new Error('no abort link on the page');
  return new URL(unescapeHtml(match[1]), pageUrl);
}

/**
 * Starts at `startUrl` (the app's /auth/google) and clicks through the provider as `login`: the login form, then the
 * consent form (or the abort link when `deny`). Returns the callback URL the provider sends the browser to, unvisited.
 */
export async function signInAtProvider(
  jar: CookieJar,
  startUrl: URL,
  callbackUrl: string,
  login: string,
  options: { deny?: boolean } = {},
): Promise<URL> {
  const atCallback = (url: URL) => url.href.startsWith(callbackUrl);
  let step = await followUntil(jar, startUrl, atCallback);
  for (let pages = 0; pages < 5 && step.page !== undefined; pages++) {
    const page = step.page;
    let next: Response;
    if (page.includes('name="login"')) {
      next = await request(jar, formAction(page, step.url), {
        form: { prompt: 'login', login, password: 'any password' },
      });
    } else if (options.deny) {
      next = await request(jar, abortLink(page, step.url));
    } else if (page.includes('value="consent"')) {
      next = await request(jar, formAction(page, step.url), { form: { prompt: 'consent' } });
    } else {
      throw new Error(`unexpected provider page: ${page.slice(0, 300)}`);
    }
    await next.body?.cancel();
    step = await followUntil(jar, locationOf(next, step.url), atCallback);
  }
  if (step.page !== undefined) throw new Error('the provider never sent the browser back');
  return step.url;
}
