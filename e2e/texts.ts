import { readFileSync } from 'node:fs';
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
