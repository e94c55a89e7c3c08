import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { internalPost } from '@nudge/platform/testing';
import { generate } from 'selfsigned';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, INTERNAL_TOKEN, startEngagement } from './harness';

// Mail providers' webhooks: each verified with the provider's own scheme (our keys and certificate standing in for
// the provider's), each event recorded once as a delivery fact, and anything forged refused with nothing changed.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const suppressed = async (harness: Harness, ...addresses: string[]) =>
  (
    (
      await internalPost(
        harness.url,
        '/internal/suppressions/check',
        { addresses: addresses.map((address) => ({ channel: 'email', address })) },
        INTERNAL_TOKEN,
      )
    ).body.suppressed as { address: string }[]
  )
    .map((a) => a.address)
    .sort();

const postRaw = async (url: string, body: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'text/plain', ...headers },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('Amazon SES through SNS', () => {
  const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:nudge-ses';
  const CERT_URL = 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-test.pem';
  let certServer: Server;
  let certBase: string;
  const hits: string[] = [];
  let privateKey: string;
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });

  beforeAll(async () => {
    // Our certificate, served locally where SNS's would be (the verifier's fetch is pointed here by path).
    const pems = await generate([{ name: 'commonName', value: 'sns.amazonaws.com' }], { keySize: 2048 });
    privateKey = pems.private;
    certServer = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end(req.url?.endsWith('.pem') ? pems.cert : '<ConfirmSubscriptionResponse/>');
    });
    await new Promise<void>((resolve) => certServer.listen(0, '127.0.0.1', resolve));
    certBase = `http://127.0.0.1:${(certServer.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => certServer.close(() => resolve())));

  const start = () =>
    startEngagement({
      deliveryWebhooks: {
        sesTopics: [TOPIC],
        get: async (url) => {
          const res = await fetch(`${certBase}${new URL(url).pathname}${new URL(url).search}`);
          return res.text();
        },
      },
    });

  /** An SNS message signed as SNS signs (SignatureVersion 2: SHA256withRSA over the fields' canonical text). */
  const snsMessage = (fields: Record<string, string>, key: string | object = privateKey) => {
    const message: Record<string, string> = {
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: TOPIC,
      Timestamp: '2026-03-10T12:00:00.000Z',
      SignatureVersion: '2',
      SigningCertURL: CERT_URL,
      ...fields,
    };
    const order =
      message.Type === 'Notification'
        ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
        : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
    const text = order
      .filter((k) => message[k] !== undefined)
      .map((k) => `${k}\n${message[k]}\n`)
      .join('');
    message.Signature = sign('sha256', Buffer.from(text), key as string).toString('base64');
    return message;
  };
  const bounce = (bounceType: string, ...addresses: string[]) =>
    JSON.stringify({
      notificationType: 'Bounce',
      bounce: {
        bounceType,
        bounceSubType: 'General',
        bouncedRecipients: addresses.map((emailAddress) => ({
          emailAddress,
          diagnosticCode: 'smtp; 550 5.1.1 user unknown',
        })),
      },
    });
  const send = (harness: Harness, message: Record<string, string>) =>
    postRaw(`${harness.url}/api/webhooks/ses`, JSON.stringify(message));

  it('suppresses on a permanent bounce and a complaint, counts a transient one, and records a replay once', async () => {
    h = await start();
    const hard = snsMessage({ Message: bounce('Permanent', 'Gone@Example.com', 'gone2@example.com') });
    expect(await send(h, hard)).toEqual({ status: 200, body: { status: true, recorded: 2, duplicates: 0 } });
    const complaint = snsMessage({
      Message: JSON.stringify({
        notificationType: 'Complaint',
        complaint: {
          complainedRecipients: [{ emailAddress: 'angry@example.com' }],
          complaintFeedbackType: 'abuse',
        },
      }),
    });
    expect((await send(h, complaint)).body).toMatchObject({ recorded: 1 });
    expect((await send(h, snsMessage({ Message: bounce('Transient', 'full@example.com') }))).status).toBe(
      200,
    );
    expect(
      await suppressed(h, 'gone@example.com', 'gone2@example.com', 'angry@example.com', 'full@example.com'),
    ).toEqual(['angry@example.com', 'gone2@example.com', 'gone@example.com']);
    // SNS delivers at least once: the same message again changes nothing.
    expect((await send(h, hard)).body).toEqual({ status: true, recorded: 0, duplicates: 2 });
    const admin = await h.user({ role: 'admin' });
    const list = await h.get('/api/admin/suppressions?address=full@example.com', admin.token);
    expect(list.body.suppressions[0]).toMatchObject({ suppressed: false, softBounces: 1, source: null });
    const gone = await h.get('/api/admin/suppressions?address=gone@example.com', admin.token);
    expect(gone.body.suppressions[0]).toMatchObject({
      reason: 'hard_bounce',
      source: 'ses',
      detail: 'smtp; 550 5.1.1 user unknown',
    });
  });

  it('refuses a forged, altered, foreign or malformed message and changes nothing', async () => {
    h = await start();
    const harness = h;
    const forged = snsMessage({ Message: bounce('Permanent', 'victim@example.com') }, stranger.privateKey);
    expect(await send(h, forged)).toEqual({
      status: 403,
      body: { status: false, message: 'The SNS message signature does not verify' },
    });
    const altered = snsMessage({ Message: bounce('Permanent', 'other@example.com') });
    altered.Message = bounce('Permanent', 'victim@example.com');
    expect((await send(h, altered)).status).toBe(403);
    // A certificate from anywhere but SNS's own hosts is never fetched, however well the message is signed.
    const before = hits.length;
    for (const url of [
      'https://sns.eu-west-1.amazonaws.com.evil.test/cert.pem',
      'http://sns.eu-west-1.amazonaws.com/cert.pem',
      'https://evil.test/sns.eu-west-1.amazonaws.com.pem',
    ]) {
      const elsewhere = snsMessage({
        Message: bounce('Permanent', 'victim@example.com'),
        SigningCertURL: url,
      });
      expect(await send(harness, elsewhere)).toEqual({
        status: 403,
        body: { status: false, message: 'The SNS signing certificate is not served by Amazon SNS' },
      });
    }
    expect(hits.length).toBe(before);
    const foreign = snsMessage({
      Message: bounce('Permanent', 'victim@example.com'),
      TopicArn: `${TOPIC}-other`,
    });
    expect((await send(h, foreign)).body).toEqual({
      status: false,
      message: 'The SNS topic is not one this service listens to',
    });
    const notJson = await postRaw(`${h.url}/api/webhooks/ses`, 'hello');
    expect(notJson).toEqual({ status: 400, body: { status: false, message: 'The SNS body is not JSON' } });
    expect(await suppressed(h, 'victim@example.com', 'other@example.com')).toEqual([]);
  });

  it('confirms a verified subscription at its SNS SubscribeURL', async () => {
    h = await start();
    const subscribe = 'https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&Token=t0k3n';
    const message = snsMessage({
      Type: 'SubscriptionConfirmation',
      Message: 'You have chosen to subscribe to the topic',
      SubscribeURL: subscribe,
      Token: 't0k3n',
    });
    expect(await send(h, message)).toEqual({ status: 200, body: { status: true, confirmed: true } });
    expect(hits).toContain('/?Action=ConfirmSubscription&Token=t0k3n');
  });
});

describe('SendGrid signed Event Webhook', () => {
  const provider = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const stranger = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const publicKey = provider.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
  const start = () => startEngagement({ deliveryWebhooks: { sendGridPublicKey: publicKey } });
  const signed = (body: string, key = provider.privateKey, timestamp = '1773144000') => ({
    'x-twilio-email-event-webhook-timestamp': timestamp,
    'x-twilio-email-event-webhook-signature': sign('sha256', Buffer.from(timestamp + body), key).toString(
      'base64',
    ),
  });
  const events = JSON.stringify([
    {
      email: 'gone@example.com',
      event: 'bounce',
      type: 'bounce',
      reason: '550 5.1.1 unknown',
      sg_event_id: 'e1',
    },
    { email: 'angry@example.com', event: 'spamreport', sg_event_id: 'e2' },
    { email: 'leaving@example.com', event: 'unsubscribe', sg_event_id: 'e3' },
    { email: 'happy@example.com', event: 'delivered', sg_event_id: 'e4' },
    {
      email: 'busy@example.com',
      event: 'bounce',
      type: 'blocked',
      reason: '421 try later',
      sg_event_id: 'e5',
    },
  ]);

  it('records each bounce, complaint and opt-out once; a replay changes nothing', async () => {
    h = await start();
    const url = `${h.url}/api/webhooks/sendgrid`;
    expect(await postRaw(url, events, signed(events))).toEqual({
      status: 200,
      body: { status: true, recorded: 4, duplicates: 0 },
    });
    expect((await postRaw(url, events, signed(events))).body).toEqual({
      status: true,
      recorded: 0,
      duplicates: 4,
    });
    expect(
      await suppressed(
        h,
        'gone@example.com',
        'angry@example.com',
        'leaving@example.com',
        'happy@example.com',
        'busy@example.com',
      ),
    ).toEqual(['angry@example.com', 'gone@example.com', 'leaving@example.com']);
  });

  it('refuses a forged, altered or unsigned delivery and changes nothing', async () => {
    h = await start();
    const url = `${h.url}/api/webhooks/sendgrid`;
    expect(await postRaw(url, events, signed(events, stranger.privateKey))).toEqual({
      status: 403,
      body: { status: false, message: 'The SendGrid signature does not verify' },
    });
    const other = events.replace('gone@', 'victim@');
    expect((await postRaw(url, other, signed(events))).status).toBe(403);
    // The timestamp is signed too: a captured signature does not go with another timestamp.
    const moved = { ...signed(events), 'x-twilio-email-event-webhook-timestamp': '1773147600' };
    expect((await postRaw(url, events, moved)).status).toBe(403);
    expect(await postRaw(url, events)).toEqual({
      status: 401,
      body: { status: false, message: 'The SendGrid signature headers are missing' },
    });
    const notEvents = JSON.stringify({ hello: 'world' });
    expect((await postRaw(url, notEvents, signed(notEvents))).status).toBe(400);
    expect(await suppressed(h, 'gone@example.com', 'victim@example.com', 'angry@example.com')).toEqual([]);
  });
});

describe('Postmark webhook', () => {
  const credential = { user: 'postmark', password: 'a-long-random-webhook-password' };
  const basic = (user: string, password: string) => ({
    authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  });
  const hardBounce = JSON.stringify({
    RecordType: 'Bounce',
    ID: 4323372036,
    Type: 'HardBounce',
    Email: 'gone@example.com',
    Description: 'The server was unable to deliver your message (ex: unknown user, mailbox not found).',
    Details: 'smtp;550 5.1.1 The email account that you tried to reach does not exist.',
  });

  it('records a hard bounce, a complaint and an opt-out once each with the right credential', async () => {
    h = await startEngagement({ deliveryWebhooks: { postmark: credential } });
    const url = `${h.url}/api/webhooks/postmark`;
    const auth = basic(credential.user, credential.password);
    expect(await postRaw(url, hardBounce, auth)).toEqual({
      status: 200,
      body: { status: true, recorded: 1, duplicates: 0 },
    });
    expect((await postRaw(url, hardBounce, auth)).body).toEqual({ status: true, recorded: 0, duplicates: 1 });
    const complaint = JSON.stringify({
      RecordType: 'SpamComplaint',
      ID: 42,
      Type: 'SpamComplaint',
      Email: 'angry@example.com',
    });
    expect((await postRaw(url, complaint, auth)).body).toMatchObject({ recorded: 1 });
    const optOut = JSON.stringify({
      RecordType: 'SubscriptionChange',
      MessageID: '883953f4-6105-42a2-a16a-77a8eac79483',
      ChangedAt: '2026-03-10T12:00:00Z',
      Recipient: 'leaving@example.com',
      SuppressSending: true,
      SuppressionReason: 'ManualSuppression',
    });
    expect((await postRaw(url, optOut, auth)).body).toMatchObject({ recorded: 1 });
    expect(await suppressed(h, 'gone@example.com', 'angry@example.com', 'leaving@example.com')).toEqual([
      'angry@example.com',
      'gone@example.com',
      'leaving@example.com',
    ]);
  });

  it('refuses a wrong or missing credential and changes nothing; an unconfigured provider is a 404', async () => {
    h = await startEngagement({ deliveryWebhooks: { postmark: credential } });
    const url = `${h.url}/api/webhooks/postmark`;
    expect(await postRaw(url, hardBounce, basic(credential.user, 'guess'))).toEqual({
      status: 403,
      body: { status: false, message: 'The Postmark webhook credential is wrong' },
    });
    expect((await postRaw(url, hardBounce)).status).toBe(401);
    expect(await suppressed(h, 'gone@example.com')).toEqual([]);
    expect(await postRaw(`${h.url}/api/webhooks/sendgrid`, '[]')).toEqual({
      status: 404,
      body: { status: false, message: 'The SendGrid webhook is not configured' },
    });
  });
});
