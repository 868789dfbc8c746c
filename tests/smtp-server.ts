/**
 * A local stand-in for the operator's SMTP relay (a third party): a real SMTP server (smtp-server)
 * on 127.0.0.1 in the test process that records each message it accepts, parsed (mailparser), and
 * answers as a test tells it: accept, refuse with an SMTP code, or hold a message until released.
 * It can be closed and started again on the same port: a relay that is down, then back. Vitest
 * files use it through tests/mail.ts; browser specs start it themselves.
 */
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

export type ReceivedMail = {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Who signed in (AUTH), if anyone. */
  user: string | null;
};

/** What the server answers to the next message: accept it, or refuse it with a code and text (451: try later; 550: never). */
export type Answer = { code: number; message: string } | "accept";

export type SmtpStandIn = {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Answers for the next messages, in order; once used up, every message is accepted. */
  answers: Answer[];
  /** Messages are held before being accepted until the returned function is called. */
  hold: () => () => void;
  /** Messages whose DATA has arrived (held ones included). */
  arrived: () => number;
  stop: () => Promise<void>;
  /** Listens again on the same port after stop(). */
  restart: () => Promise<void>;
};

function smtpError(answer: { code: number; message: string }): Error {
  return Object.assign(new Error(answer.message), { responseCode: answer.code });
}

export async function startSmtpServer(options: { port?: number; credentials?: { user: string; pass: string } } = {}): Promise<SmtpStandIn> {
  const received: ReceivedMail[] = [];
  const answers: Answer[] = [];
  let arrived = 0;
  let gate: Promise<void> | null = null;

  const serverOptions: SMTPServerOptions = {
    // Plain SMTP on loopback: no STARTTLS (nodemailer would try it), sign-in allowed without TLS.
    disabledCommands: options.credentials ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    allowInsecureAuth: true,
    authOptional: !options.credentials,
    logger: false,
    onAuth(auth, _session, callback) {
      const ok = auth.username === options.credentials?.user && auth.password === options.credentials?.pass;
      callback(ok ? null : smtpError({ code: 535, message: "Authentication failed" }), ok ? { user: auth.username } : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        arrived += 1;
        if (gate) await gate;
        const answer = answers.shift() ?? "accept";
        if (answer !== "accept") return callback(smtpError(answer));
        const parsed = await simpleParser(Buffer.concat(chunks));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: typeof parsed.html === "string" ? parsed.html : "",
          messageId: parsed.messageId ?? "",
          user: typeof session.user === "string" ? session.user : null,
        });
        callback(null, `2.0.0 Ok: queued as TEST${received.length}`);
      });
    },
  };

  let server = new SMTPServer(serverOptions);
  const listen = (port: number) => new Promise<number>((resolve) => server.listen(port, "127.0.0.1", () => resolve((server.server.address() as AddressInfo).port)));
  const port = await listen(options.port ?? 0);
  const auth = options.credentials ? `${encodeURIComponent(options.credentials.user)}:${encodeURIComponent(options.credentials.pass)}@` : "";

  return {
    url: `smtp://${auth}127.0.0.1:${port}`,
    port,
    received,
    answers,
    arrived: () => arrived,
    hold: () => {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = null;
        release();
      };
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    restart: async () => {
      server = new SMTPServer(serverOptions);
      await listen(port);
    },
  };
}

