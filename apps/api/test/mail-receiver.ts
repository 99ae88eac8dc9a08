import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { to: string[]; subject: string; text: string; raw: string };

/** A quoted-printable body back to text (soft line breaks joined, =XX bytes decoded). */
export function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** A header in RFC 2047 encoded words (`=?UTF-8?B?...?=`, as a subject in Hindi is sent) back to text. */
export function decodeEncodedWords(value: string): string {
  if (!value.includes('=?')) return value;
  const bytes: Buffer[] = [];
  // Whitespace between two encoded words is not part of the text.
  for (const [, , encoding, data] of value.matchAll(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g)) {
    bytes.push(
      encoding!.toUpperCase() === 'B'
        ? Buffer.from(data!, 'base64')
        : Buffer.from(decodeQuotedPrintable(data!.replaceAll('_', ' ')), 'utf8'),
    );
  }
  return Buffer.concat(bytes).toString('utf8');
}

/** Splits a raw message into its headers and its text body (single-part mails, as ours are). */
export function parseMail(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) =>
    head
      .split('\r\n')
      .find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      ?.slice(name.length + 1)
      .trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { to, subject: decodeEncodedWords(header('Subject')), text, raw };
}

/**
 * A real SMTP server on 127.0.0.1 (a free port) that keeps what it receives, for tests that
 * follow a mail from the API to its reader.
 */
export async function startMailReceiver() {
  const mails: ReceivedMail[] = [];
  const listeners = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 1000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase());
        mails.push(parseMail(Buffer.concat(chunks).toString('latin1'), to));
        for (const listener of listeners) listener();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;

  const mailsTo = (address: string) => mails.filter((mail) => mail.to.includes(address.toLowerCase()));

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    mailsTo,
    /** The next mail to an address beyond the `already` it had received. */
    waitForMail(address: string, options: { already?: number; timeoutMs?: number } = {}) {
      const already = options.already ?? 0;
      return new Promise<ReceivedMail>((resolve, reject) => {
        const check = () => {
          const found = mailsTo(address)[already];
          if (!found) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`No mail to ${address} within ${options.timeoutMs ?? 20_000} ms`));
        }, options.timeoutMs ?? 20_000);
        listeners.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The reset link in a mail, and the token it carries. */
export function resetLinkIn(mail: ReceivedMail): { link: string; token: string } {
  const match = /(https?:\/\/\S+\/reset-password\?token=([A-Za-z0-9_-]+))/.exec(mail.text);
  if (!match) throw new Error(`No reset link in the mail:\n${mail.text}`);
  return { link: match[1]!, token: match[2]! };
}
