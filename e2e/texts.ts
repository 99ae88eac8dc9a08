import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A catalogue entry: a plain text, or variants chosen by a plural. */
type Entry = string | { match: Record<string, string> }[];

const shared = join(dirname(fileURLToPath(import.meta.url)), '../packages/shared');

/** Every text of a language, read from the catalogue files the inlang project names. */
export function readCatalogue(language: 'en' | 'hi'): Record<string, Entry> {
  const settings = JSON.parse(readFileSync(join(shared, 'project.inlang/settings.json'), 'utf8'));
  const patterns: string[] = [settings['plugin.inlang.messageFormat'].pathPattern].flat();
  const texts: Record<string, Entry> = {};
  for (const pattern of patterns) {
    const file = join(shared, pattern.replace('{locale}', language));
    const { $schema: _schema, ...entries } = JSON.parse(readFileSync(file, 'utf8'));
    Object.assign(texts, entries);
  }
  return texts;
}

const variants = (entry: Entry): string[] =>
  typeof entry === 'string' ? [entry] : entry.flatMap((variant) => Object.values(variant.match));

/**
 * The English texts a Hindi screen must never show: each as a pattern of the whole text of a
 * node or attribute (`{name}` stands for anything). Texts that read the same in both languages
 * (the product's name, a date format) and one- or two-letter texts are left out.
 */
export function englishOnlyPatterns(): { key: string; pattern: RegExp }[] {
  const english = readCatalogue('en');
  const hindi = readCatalogue('hi');
  const patterns: { key: string; pattern: RegExp }[] = [];
  for (const [key, entry] of Object.entries(english)) {
    const same = new Set(variants(hindi[key] ?? ''));
    for (const text of variants(entry)) {
      if (same.has(text) || text.replace(/\{\w+\}/g, '').trim().length <= 2) continue;
      const source = text
        .split(/\{\w+\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.+');
      patterns.push({ key, pattern: new RegExp(`^${source}$`) });
    }
  }
  return patterns;
}

/**
 * A text of the English catalogue as a language shows it: the Hindi entry of the same key. A
 * pattern stands for a text with a part filled in (`/^Welcome .+ to Book-My-ETaxi$/`): the first
 * entry it matches, filled with a sample, gives its Hindi pattern.
 */
export function textsIn(language: 'en' | 'hi') {
  if (language === 'en') return <T extends string | RegExp>(text: T) => text;
  const english = readCatalogue('en');
  const hindi = readCatalogue('hi');
  const keyOf = (matches: (text: string) => boolean) => {
    const key = Object.keys(english).find((k) => typeof english[k] === 'string' && matches(english[k]));
    if (!key || typeof hindi[key] !== 'string') throw new Error('no Hindi text in the catalogue');
    return hindi[key];
  };
  return <T extends string | RegExp>(text: T): T => {
    if (typeof text === 'string') return keyOf((entry) => entry === text) as T;
    const found = keyOf((entry) => text.test(entry.replace(/\{\w+\}/g, 'X')));
    const source = found
      .split(/\{\w+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+');
    return new RegExp(`^${source}$`) as T;
  };
}

/** Every text a person can see or hear on the page: text nodes and the named attributes. */
async function shownTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts = new Set<string>([document.title]);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, noscript')) continue;
      const text = node.textContent?.replace(/\s+/g, ' ').trim();
      if (text) texts.add(text);
    }
    for (const element of Array.from(
      document.querySelectorAll('[aria-label], [placeholder], [title], [alt]'),
    )) {
      for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(name)?.trim();
        if (value) texts.add(value);
      }
    }
    return [...texts];
  });
}

let englishOnly: ReturnType<typeof englishOnlyPatterns> | undefined;

/** English texts of the catalogue found on a Hindi page, with their keys. */
export async function untranslated(page: Page): Promise<string[]> {
  englishOnly ??= englishOnlyPatterns();
  const texts = await shownTexts(page);
  return texts.flatMap((text) =>
    englishOnly!.filter(({ pattern }) => pattern.test(text)).map(({ key }) => `${key}: "${text}"`),
  );
}

/** Makes the page open in Hindi, as a browser that chose it before. */
export const inHindi = (page: Page) =>
  page.addInitScript(() => {
    if (location.protocol.startsWith('http')) localStorage.setItem('bmet-language', 'hi');
  });
