import { SMTPServer } from 'smtp-server';

/** A mail as the capture server received it. */
export type CapturedMail = { to: string[]; raw: string };

/** A local SMTP server that keeps every mail it is sent (no TLS, no auth). */
export type SmtpCapture = {
  url: string;
  mails: CapturedMail[];
  /** Resolves with the first mail to `address`, or the one at `index` (waiting for it if need be). */
  mailTo: (address: string, options?: { index?: number }) => Promise<CapturedMail>;
  stop: () => Promise<void>;
};

/** Starts an SMTP server on 127.0.0.1 (`port`, else a free one); `url` goes in `SMTP_URL`. */
export async function startSmtpCapture({ port: wanted = 0 }: { port?: number } = {}): Promise<SmtpCapture> {
  const mails: CapturedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(wanted, '127.0.0.1', () => {
      const address = server.server.address();
      if (typeof address === 'object' && address !== null) resolve(address.port);
      else reject(new Error('no port'));
    });
  });
  const mailTo = async (address: string, { index = 0 }: { index?: number } = {}) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const mail = mails.filter((candidate) => candidate.to.includes(address.toLowerCase()))[index];
      if (mail !== undefined) return mail;
      if (Date.now() > deadline) throw new Error(`No mail to ${address} arrived`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 500);
      });
    }
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    mailTo,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The verification link in a captured mail (quoted-printable soft breaks undone). */
export function verificationLinkOf(mail: CapturedMail): string {
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /https?:\/\/\S+\/verify-email\?\S+/.exec(text);
  if (match === null) throw new Error(`No verification link in the mail:\n${mail.raw}`);
  return match[0];
}

/** A header of a captured mail (the first of that name, unfolded), or undefined. */
export function mailHeader(mail: CapturedMail, name: string): string | undefined {
  const head = mail.raw.split(/\r?\n\r?\n/, 1)[0].replace(/\r?\n[ \t]+/g, ' ');
  const line = head
    .split(/\r?\n/)
    .find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** The text of a single-part captured mail, its transfer encoding (base64, quoted-printable) undone. */
export function mailText(mail: CapturedMail): string {
  const separator = /\r?\n\r?\n/.exec(mail.raw);
  const body = separator === null ? '' : mail.raw.slice(separator.index + separator[0].length);
  const encoding = mailHeader(mail, 'Content-Transfer-Encoding')?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** The subject of a captured mail, its encoded words (RFC 2047, base64 or Q) decoded. */
export function mailSubject(mail: CapturedMail): string {
  const subject = mailHeader(mail, 'Subject') ?? '';
  return subject
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BQbq])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) =>
                String.fromCharCode(Number.parseInt(hex, 16)),
              ),
            'latin1',
          ).toString('utf8'),
    );
}
