import { describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { startMailReceiver } from '../../test/mail-receiver';
import { createMailer } from './mailer';

const SECRET = 'a-mailer-test-secret-of-more-than-32-chars';
const mail = {
  to: 'someone@example.in',
  subject: 'Reset your Book-My-ETaxi password',
  text: 'Open http://localhost:3000/reset-password?token=abc within 30 minutes.',
};

describe('createMailer', () => {
  it('without SMTP prints each mail, link included, to the log (at warn, so LOG_LEVEL=warn shows it)', async () => {
    const logger = { info: vi.fn(), warn: vi.fn() };
    const mailer = createMailer({ from: 'Book-My-ETaxi <no-reply@example.in>', logger });
    expect(mailer.delivers).toBe(false);
    await mailer.send(mail);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    const [fields, message] = logger.warn.mock.calls[0]!;
    expect(fields).toEqual({ to: mail.to });
    expect(message).toContain('SMTP_URL is not set');
    expect(message).toContain(mail.subject);
    expect(message).toContain('http://localhost:3000/reset-password?token=abc');
  });

  it('with SMTP_URL sends through the SMTP server and logs no body', async () => {
    const receiver = await startMailReceiver();
    const logger = { info: vi.fn(), warn: vi.fn() };
    const mailer = createMailer({ smtpUrl: receiver.url, from: 'Console <no-reply@example.in>', logger });
    try {
      expect(mailer.delivers).toBe(true);
      await mailer.send(mail);
      const received = await receiver.waitForMail(mail.to);
      expect(received.subject).toBe(mail.subject);
      expect(received.text).toContain('reset-password?token=abc');
      expect(received.raw).toMatch(/^From: Console <no-reply@example\.in>/m);
      expect(JSON.stringify(logger.info.mock.calls)).not.toContain('token=abc');
    } finally {
      mailer.close();
      await receiver.close();
    }
  });

  it('rejects when the SMTP server cannot be reached', async () => {
    const logger = { info: vi.fn(), warn: vi.fn() };
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:9', from: 'x@example.in', logger });
    await expect(mailer.send(mail)).rejects.toThrow();
    mailer.close();
  });
});

describe('mail configuration', () => {
  it('defaults: no SMTP, a from-address, links to this server on its port', () => {
    const config = loadConfig({ JWT_SECRET: SECRET, PORT: '4010' });
    expect(config.mail).toEqual({
      smtpUrl: undefined,
      from: 'Book-My-ETaxi <no-reply@bookmyetaxi.in>',
      appUrl: 'http://localhost:4010',
    });
  });

  it('reads SMTP_URL, MAIL_FROM and APP_URL (without a trailing slash)', () => {
    const config = loadConfig({
      JWT_SECRET: SECRET,
      SMTP_URL: 'smtps://mailer:secret@smtp.example.in:465',
      MAIL_FROM: 'Ops <ops@example.in>',
      APP_URL: 'https://console.example.in/',
    });
    expect(config.mail).toEqual({
      smtpUrl: 'smtps://mailer:secret@smtp.example.in:465',
      from: 'Ops <ops@example.in>',
      appUrl: 'https://console.example.in',
    });
  });

  it('names a bad SMTP_URL or APP_URL without repeating the value', () => {
    let error: unknown;
    try {
      loadConfig({ JWT_SECRET: SECRET, SMTP_URL: 'mail.example.in:25', APP_URL: 'console' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toMatch(/SMTP_URL: must look like smtp:\/\//);
    expect(message).toMatch(/APP_URL: must be a URL/);
    expect(message).not.toContain('mail.example.in:25');
  });
});
