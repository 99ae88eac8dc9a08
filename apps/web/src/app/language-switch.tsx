import { m } from '@bmet/shared/paraglide/messages';
import { LANGUAGE_NAMES, LANGUAGE_SHORT_NAMES, LANGUAGES, useLanguage, type Language } from '../lib/language';
import classes from './language-switch.module.css';

/**
 * English or हिन्दी, each named in itself. Wide headers show both, the current one pressed; a phone
 * shows only the other one, by its short name (EN, हि). The choice is kept in this browser and, when signed in, with the
 * account (`onChange` saves it there).
 */
export function LanguageSwitch({ onChange }: { onChange?: (language: Language) => void }) {
  const { language, changeLanguage } = useLanguage();
  const choose = (next: Language) => {
    if (next === language) return;
    changeLanguage(next);
    onChange?.(next);
  };
  return (
    <div className={classes.switch} role="group" aria-label={m.language()}>
      {LANGUAGES.map((option) => (
        <button
          key={option}
          type="button"
          lang={option}
          className={classes.option}
          aria-pressed={option === language}
          // The name holds both texts a width may show ("English, EN"): whoever speaks to the
          // screen says what they see (WCAG 2.5.3, label in name).
          aria-label={`${LANGUAGE_NAMES[option]}, ${LANGUAGE_SHORT_NAMES[option]}`}
          onClick={() => choose(option)}
        >
          <span className={classes.full}>{LANGUAGE_NAMES[option]}</span>
          <span className={classes.short}>{LANGUAGE_SHORT_NAMES[option]}</span>
        </button>
      ))}
    </div>
  );
}
