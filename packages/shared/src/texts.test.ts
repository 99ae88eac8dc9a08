import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { m } from './paraglide/messages.js';

type Entry = string | { declarations?: string[]; match: Record<string, string> }[];

const read = (language: string) =>
  readFileSync(new URL(`../messages/${language}.json`, import.meta.url), 'utf8');
const catalogue = (language: string): Record<string, Entry> => {
  const { $schema: _schema, ...texts } = JSON.parse(read(language));
  return texts;
};
const en = catalogue('en');
const hi = catalogue('hi');

const variants = (entry: Entry): string[] =>
  typeof entry === 'string' ? [entry] : entry.flatMap((variant) => Object.values(variant.match));
const parameters = (entry: Entry): string[] =>
  [
    ...new Set(variants(entry).flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((found) => found[1]!))),
  ].sort();
/** Parameters a plural chooses its variant by, which a language may leave out of its text. */
const selectors = (entry: Entry): string[] =>
  typeof entry === 'string'
    ? []
    : entry
        .flatMap((variant) => (variant.declarations ?? []).map((d) => d.match(/^input (\w+)$/)?.[1] ?? ''))
        .filter(Boolean);

// Texts that read the same in Hindi: the product's name, and a field name before its message.
const SAME_IN_BOTH = new Set(['productTitle', 'ratesFieldError']);

describe('the text catalogues', () => {
  it('have the same keys in English and Hindi', () => {
    expect(Object.keys(hi).sort()).toEqual(Object.keys(en).sort());
  });

  it('name each key once per file (a second one would silently win)', () => {
    for (const language of ['en', 'hi']) {
      const keys = [...read(language).matchAll(/^ {2}"(\w+)":/gm)].map((found) => found[1]);
      expect(
        keys.filter((key, i) => keys.indexOf(key) !== i),
        language,
      ).toEqual([]);
    }
  });

  it('give every text the same parameters in both languages', () => {
    const differing = Object.keys(en).filter((key) => {
      const english = parameters(en[key]!);
      const hindi = parameters(hi[key]!);
      const optional = new Set(selectors(en[key]!));
      return (
        english.filter((p) => !optional.has(p)).join() !== hindi.filter((p) => !optional.has(p)).join() ||
        hindi.some((p) => !english.includes(p))
      );
    });
    expect(differing).toEqual([]);
  });

  it('have no empty text, and a Hindi text of its own for every English one', () => {
    const empty = Object.entries({ ...en, ...hi }).filter(([, entry]) =>
      variants(entry).some((t) => !t.trim()),
    );
    expect(empty).toEqual([]);
    const copied = Object.keys(en).filter(
      (key) => !SAME_IN_BOTH.has(key) && variants(en[key]!).join() === variants(hi[key]!).join(),
    );
    expect(copied).toEqual([]);
  });

  it('write Hindi in Devanagari and keep numbers in Western digits', () => {
    const notDevanagari = Object.keys(hi).filter(
      (key) => !SAME_IN_BOTH.has(key) && !variants(hi[key]!).every((text) => /[\u0900-\u097F]/.test(text)),
    );
    expect(notDevanagari).toEqual([]);
    const devanagariDigits = Object.keys(hi).filter((key) => variants(hi[key]!).some((t) => /[०-९]/.test(t)));
    expect(devanagariDigits).toEqual([]);
  });

  it('compile to functions that speak either language, plurals included', () => {
    expect(m.signInButton()).toBe('Sign In');
    expect(m.signInButton({}, { locale: 'hi' })).toBe('साइन इन करें');
    expect(m.tooManyAttempts({ minutes: 1 })).toBe(
      'Too many failed sign-in attempts. Try again in 1 minute.',
    );
    expect(m.tooManyAttempts({ minutes: 15 })).toBe(
      'Too many failed sign-in attempts. Try again in 15 minutes.',
    );
    expect(m.tooManyAttempts({ minutes: 15 }, { locale: 'hi' })).toBe(
      'साइन इन के बहुत ज़्यादा असफल प्रयास। 15 मिनट बाद फिर कोशिश करें।',
    );
  });
});
