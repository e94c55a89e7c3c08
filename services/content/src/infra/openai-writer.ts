import OpenAI from 'openai';

export interface WriterOptions {
  apiKey: string;
  baseURL?: string | undefined;
  model: string;
  /** Provider calls give up after this long. */
  timeoutMs?: number;
  maxRetries?: number;
}

export interface TextWriter {
  /** The model's answer to one prompt, or throws WriterError. */
  write(prompt: string): Promise<string>;
}

/** A provider failure, with a reason an admin can act on. */
export class WriterError extends Error {
  constructor(
    message: string,
    readonly kind: 'refused' | 'unreachable' | 'empty' | 'failed',
  ) {
    super(message);
    this.name = 'WriterError';
  }
}

/** The AI writer over the `openai` client: any OpenAI-compatible chat completions API. */
export function createOpenAiWriter(options: WriterOptions): TextWriter {
  const client = new OpenAI({
    apiKey: options.apiKey,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    timeout: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries ?? 1,
  });
  return {
    async write(prompt) {
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      try {
        completion = await client.chat.completions.create({
          model: options.model,
          messages: [{ role: 'user', content: prompt }],
        });
      } catch (err) {
        throw toWriterError(err);
      }
      const content = completion.choices?.[0]?.message?.content?.trim();
      if (!content) throw new WriterError('The AI provider returned no content', 'empty');
      return content;
    },
  };
}

function toWriterError(err: unknown): WriterError {
  if (err instanceof OpenAI.APIConnectionError)
    return new WriterError('The AI provider could not be reached', 'unreachable');
  if (err instanceof OpenAI.AuthenticationError || err instanceof OpenAI.PermissionDeniedError)
    return new WriterError('The AI provider refused the API key (check OPENAI_API_KEY)', 'refused');
  if (err instanceof OpenAI.RateLimitError)
    return new WriterError('The AI provider is rate limiting requests', 'failed');
  if (err instanceof OpenAI.APIError)
    return new WriterError(`The AI provider answered with an error (${err.status ?? 'no status'})`, 'failed');
  return new WriterError('The AI provider call failed', 'failed');
}
