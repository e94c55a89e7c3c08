import type { Server } from 'node:http';
import { closeServer, listen } from '@nudge/platform';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContentHarness, startContent } from './harness';

interface FakeOpenAi {
  url: string;
  requests: { auth: string | undefined; body: any }[];
  /** What the next answers are: a status and a body. */
  answer: { status: number; body: unknown };
  server: Server;
}

/** A local server answering POST /v1/chat/completions the way OpenAI does. */
async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const app = express();
  app.use(express.json());
  const fake = { requests: [] as FakeOpenAi['requests'] } as FakeOpenAi;
  fake.answer = { status: 200, body: completion('Generated text') };
  app.post('/v1/chat/completions', (req, res) => {
    fake.requests.push({ auth: req.header('authorization'), body: req.body });
    res.status(fake.answer.status).json(fake.answer.body);
  });
  const { server, url } = await listen(app, 0);
  fake.server = server;
  fake.url = `${url}/v1`;
  return fake;
}

const completion = (content: string | null) => ({
  id: 'chatcmpl-test',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'test-model',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

describe('AI writer (POST /api/template/generate-content)', () => {
  let fake: FakeOpenAi;
  let h: ContentHarness;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    h = await startContent({
      ai: { apiKey: 'sk-test-key', baseURL: fake.url, model: 'test-model', maxRetries: 0, timeoutMs: 10_000 },
    });
  });
  afterAll(async () => {
    await h.close();
    await closeServer(fake.server);
  });

  const generate = (body: unknown) => h.post('/api/template/generate-content', body, h.admin.token);

  it('asks the configured model with the key and answers the content', async () => {
    fake.answer = { status: 200, body: completion('  Take a slow breath.  ') };
    const reply = await generate({ prompt: 'Write about breathing' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: true, content: 'Take a slow breath.' });
    const sent = fake.requests.at(-1)!;
    expect(sent.auth).toBe('Bearer sk-test-key');
    expect(sent.body.model).toBe('test-model');
    expect(sent.body.messages).toEqual([{ role: 'user', content: 'Write about breathing' }]);
  });

  it('puts the site’s bodypromptprefix before body prompts and subjectspromptprefix before subject prompts', async () => {
    await h.put(
      '/api/sitesettings/update',
      {
        settings: {
          bodypromptprefix: 'You write calm posts.',
          subjectspromptprefix: 'Give 5 subject lines.',
        },
      },
      h.admin.token,
    );
    await generate({ prompt: 'Sleep' });
    expect(fake.requests.at(-1)!.body.messages[0].content).toBe('You write calm posts.\n\nSleep');
    await generate({ prompt: 'Sleep', kind: 'subjects' });
    expect(fake.requests.at(-1)!.body.messages[0].content).toBe('Give 5 subject lines.\n\nSleep');
  });

  it('cuts the content at 5000 characters', async () => {
    fake.answer = { status: 200, body: completion('w'.repeat(6000)) };
    const reply = await generate({ prompt: 'Long' });
    expect(reply.body.content).toHaveLength(5000);
  });

  it.each([
    [{ prompt: '' }, 'Please enter a prompt'],
    [{ prompt: '   ' }, 'Please enter a prompt'],
    [{}, 'Please enter a prompt'],
    [{ prompt: 'p'.repeat(5001) }, 'Prompt must be 5000 characters or less'],
    [{ prompt: 'ok', kind: 'poem' }, "kind must be 'body' or 'subjects'"],
  ])('refuses %j with a 400 and does not call the provider', async (body, message) => {
    const calls = fake.requests.length;
    const reply = await generate(body);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ status: false, message });
    expect(fake.requests.length).toBe(calls);
  });

  it('accepts a prompt of exactly 5000 characters', async () => {
    fake.answer = { status: 200, body: completion('ok') };
    expect((await generate({ prompt: 'p'.repeat(5000) })).status).toBe(200);
  });

  it.each([
    [
      500,
      { error: { message: 'boom', type: 'server_error' } },
      'The AI provider answered with an error (500)',
    ],
    [
      401,
      { error: { message: 'bad key', type: 'invalid_request_error' } },
      'The AI provider refused the API key (check OPENAI_API_KEY)',
    ],
    [
      429,
      { error: { message: 'slow down', type: 'rate_limit' } },
      'The AI provider is rate limiting requests',
    ],
    [200, completion(null), 'The AI provider returned no content'],
  ])('answers 503 with a clear message when the provider fails (%s)', async (status, body, reason) => {
    fake.answer = { status, body };
    const reply = await generate({ prompt: 'Anything' });
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual({
      status: false,
      message: `The AI writer could not generate content: ${reason}. Please try again.`,
    });
  });

  it('answers 503 when the provider cannot be reached', async () => {
    const offline = await startContent({
      ai: { apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0, timeoutMs: 5_000 },
    });
    try {
      const reply = await offline.post(
        '/api/template/generate-content',
        { prompt: 'x' },
        offline.admin.token,
      );
      expect(reply.status).toBe(503);
      expect(reply.body.message).toBe(
        'The AI writer could not generate content: The AI provider could not be reached. Please try again.',
      );
    } finally {
      await offline.close();
    }
  });

  it('answers 503 "The AI writer is not configured" without an API key', async () => {
    const unconfigured = await startContent({ ai: { model: 'gpt-4o-mini' } });
    try {
      const reply = await unconfigured.post(
        '/api/template/generate-content',
        { prompt: 'x' },
        unconfigured.admin.token,
      );
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({ status: false, message: 'The AI writer is not configured' });
    } finally {
      await unconfigured.close();
    }
  });
});
