import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';

// A real SMTP server (smtp-server) for the fault tests: the app's own nodemailer transport talks to it over
// TCP. It can go down (the port refuses connections, open ones are dropped) and come back on the same
// port, answer slowly, and it records every message it accepted with its Message-ID, the SMTP user that
// sent it (each API instance logs in as its own user) and what `check` found at the moment of accepting.

export type Delivery = {
  messageId: string;
  /** The outbox row, from the Message-ID `<outbox-ID@parley>`. */
  outboxId: number;
  /** The SMTP user of the sender (the user in its SMTP_URL), null when it sent without logging in. */
  user: string | null;
  to: string[];
  subject: string;
  /** Date.now() when the message was accepted (the 250 answer to the end of DATA). */
  at: number;
  /** What `check` reported when the message was accepted; null when all was well. */
  problem: string | null;
};

export type SmtpSink = {
  port: number;
  /** An SMTP_URL for a sender; with a user, the deliveries name it (any password is accepted). */
  url(user?: string): string;
  deliveries: Delivery[];
  /** SMTP connections opened so far (a pooled sender reuses one for many messages). */
  connections(): number;
  /** How many times each outbox id was accepted. */
  countsById(): Map<number, number>;
  /** Refuses connections from now on and drops the open ones (a message not yet accepted is not). */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
};

export type SinkOptions = {
  /** How long the server takes to accept each message once its data is in (a slow server). */
  acceptDelayMs?: number;
  /** Runs as each message is accepted; a string is recorded as the delivery's problem. */
  check?: (outboxId: number) => Promise<string | null>;
};

async function readAll(stream: SMTPServerDataStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A header of a raw message (unfolded), or ''. */
function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const match = new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(unfolded);
  return match?.[1]?.trim() ?? '';
}

const refused = (text: string) => Object.assign(new Error(text), { responseCode: 421 });

export async function startSmtpSink(options: SinkOptions = {}): Promise<SmtpSink> {
  const deliveries: Delivery[] = [];
  let server: SMTPServer | undefined;
  let port = 0;
  let connections = 0;

  const listen = async () => {
    const current = new SMTPServer({
      logger: false,
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      closeTimeout: 1,
      onConnect(_session, callback) {
        connections += 1;
        callback();
      },
      onAuth(auth, _session, callback) {
        callback(null, { user: auth.username });
      },
      onData(stream, session, callback) {
        void (async () => {
          const raw = await readAll(stream);
          if (options.acceptDelayMs)
            await new Promise((resolve) => setTimeout(resolve, options.acceptDelayMs));
          const messageId = header(raw, 'Message-ID');
          const outboxId = Number(/^<outbox-(\d+)@parley>$/.exec(messageId)?.[1] ?? Number.NaN);
          const problem = options.check ? await options.check(outboxId) : null;
          // Gone down meanwhile, or the sender gave up and closed the connection: it never hears a 250, so
          // the message is not delivered. From here to the 250 nothing waits: nothing can come in between.
          const open = [...current.connections].some((connection) => connection.session === session);
          if (server !== current || !open) return callback(refused('Service not available, closing channel'));
          deliveries.push({
            messageId,
            outboxId,
            user: typeof session.user === 'string' ? session.user : null,
            to: session.envelope.rcptTo.map((address) => address.address),
            subject: header(raw, 'Subject'),
            at: Date.now(),
            problem,
          });
          callback(null);
        })().catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
      },
    });
    current.on('error', () => {}); // a dropped client is not the sink's failure
    await new Promise<void>((resolve, reject) => {
      current.server.once('error', reject);
      current.listen(port, '127.0.0.1', () => {
        const address = current.server.address();
        if (typeof address === 'object' && address) port = address.port;
        resolve();
      });
    });
    server = current;
  };

  const down = async () => {
    const current = server;
    if (!current) return;
    server = undefined;
    await new Promise<void>((resolve) => {
      current.close(() => resolve());
      for (const connection of current.connections) connection.close();
    });
  };

  await listen();
  return {
    get port() {
      return port;
    },
    url: (user) => `smtp://${user ? `${user}:secret@` : ''}127.0.0.1:${port}`,
    deliveries,
    connections: () => connections,
    countsById() {
      const counts = new Map<number, number>();
      for (const delivery of deliveries)
        counts.set(delivery.outboxId, (counts.get(delivery.outboxId) ?? 0) + 1);
      return counts;
    },
    down,
    up: listen,
    close: down,
  };
}
