export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
  /**
   * A key that is the same on every delivery attempt of one message (a reminder's send key): the capture outbox
   * stores a message once per key; SMTP sends it as the Message-ID.
   */
  idempotencyKey?: string;
}

export interface WhatsAppMessage {
  /** Digits with country code, or an E.164 number. */
  to: string;
  text: string;
  idempotencyKey?: string;
}

export interface MailSender {
  send(message: MailMessage): Promise<void>;
  /** The transport stores a message once per idempotency key (the capture outbox): a re-delivery is harmless. */
  readonly idempotent?: boolean;
}

export interface WhatsAppSender {
  send(message: WhatsAppMessage): Promise<void>;
  readonly idempotent?: boolean;
}

export interface OutboxMessage {
  channel: 'email' | 'whatsapp';
  to: string;
  subject?: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
  idempotencyKey?: string;
  /** The whole message as sent (RFC 5322), kept when e-mail is signed: the DKIM signature verifies against it. */
  raw?: string;
  createdAt: string;
}

/** The embedded topology's capture of every e-mail and WhatsApp message (GET /api/dev/outbox). */
export interface DevOutbox {
  record(message: Omit<OutboxMessage, 'createdAt'>): Promise<void>;
  /** Newest first; `skip` for paging. */
  list(limit?: number, skip?: number): Promise<OutboxMessage[]>;
  /** Erases every message sent to this address or number (a deleted reader's); returns how many. */
  forget?(to: string): Promise<number>;
}
