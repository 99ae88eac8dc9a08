import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { baseLocale, isLocale, overwriteGetLocale, type Locale } from '@bmet/shared/paraglide/runtime';

declare module 'fastify' {
  interface FastifyRequest {
    /** The language the caller reads: the first of Accept-Language we have, else English. */
    language: Locale;
  }
}

const storage = new AsyncLocalStorage<Locale>();

// Every text function (`m.invalidCredentials()`) called while a request is handled speaks the
// language of that request; outside a request (seeds, commands, logs) texts are English.
overwriteGetLocale(() => storage.getStore() ?? baseLocale);

/**
 * The caller's language from an Accept-Language header: the supported language of highest weight
 * ('hi-IN' counts as 'hi'), English when none is supported or the header is missing or malformed.
 */
export function languageFromHeader(header: string | string[] | undefined): Locale {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value || value.length > 512) return baseLocale;
  let best: { language: Locale; weight: number } | null = null;
  for (const part of value.split(',')) {
    const [range, ...parameters] = part.trim().split(';');
    const primary = range?.trim().toLowerCase().split('-')[0];
    if (!primary || !isLocale(primary)) continue;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (!Number.isFinite(weight) || weight <= 0 || weight > 1) continue;
    if (!best || weight > best.weight) best = { language: primary, weight };
  }
  return best?.language ?? baseLocale;
}

/** Texts from here on (in this request's asynchronous path) speak the request's language. */
export function enterRequestLanguage(request: FastifyRequest): void {
  storage.enterWith(request.language);
}

/** Runs `work` with texts in `language` (a mail sent in its recipient's language, say). */
export function inLanguage<T>(language: Locale, work: () => T): T {
  return storage.run(language, work);
}

/**
 * Reads each request's language before anything else runs, and keeps it for the whole request:
 * validation messages, errors and labels in answers come out in it. The store is entered again
 * after the body is read, because the body arrives on the socket's own asynchronous path.
 */
export const languagePlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('language', baseLocale);
  app.addHook('onRequest', (request, _reply, done) => {
    request.language = languageFromHeader(request.headers['accept-language']);
    storage.run(request.language, done);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    storage.enterWith(request.language);
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    storage.enterWith(request.language);
    done();
  });
});
