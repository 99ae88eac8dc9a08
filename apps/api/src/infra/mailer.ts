import nodemailer from 'nodemailer';

export type Mail = { to: string; subject: string; text: string };

export type Mailer = {
  /** Sends one mail; rejects when the SMTP server refuses it or cannot be reached. */
  send: (mail: Mail) => Promise<void>;
  /** Whether mails really leave (SMTP) or are only printed to the log. */
  readonly delivers: boolean;
  close: () => void;
};

type MailLogger = {
  info: (object: object, message: string) => void;
  warn: (object: object, message: string) => void;
};

/**
 * Outgoing mail through SMTP (nodemailer) when SMTP_URL is set. Without it, every mail is printed
 * to the server's log instead, links included, so that a local install can still reset a
 * password: the log is where its operator looks.
 */
export function createMailer(options: { smtpUrl?: string; from: string; logger: MailLogger }): Mailer {
  const { smtpUrl, from, logger } = options;
  if (!smtpUrl) {
    return {
      delivers: false,
      // warn, not info: the mail did not leave, and LOG_LEVEL=warn must still show the link.
      send: async (mail) => {
        logger.warn(
          { to: mail.to },
          `SMTP_URL is not set, so this mail was not sent. To ${mail.to}: ${mail.subject}\n\n${mail.text}\n`,
        );
      },
      close: () => {},
    };
  }
  // Bounded waits: a reset request must not hang on an unreachable mail server (the URL's own
  // query parameters, such as ?connectionTimeout=, still win).
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  return {
    delivers: true,
    send: async (mail) => {
      const info = await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
      // The recipient and the message id only: the body holds a secret link.
      logger.info({ to: mail.to, messageId: info.messageId }, 'mail sent');
    },
    close: () => transport.close(),
  };
}
