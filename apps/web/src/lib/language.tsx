import {
  createContext,
  Fragment,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import {
  getLocale,
  locales,
  overwriteGetLocale,
  setLocale,
  type Locale,
} from '@bmet/shared/paraglide/runtime';

export type Language = Locale;
export const LANGUAGES: readonly Language[] = locales;

/** Each language named in itself, as a language switch names them: never translated. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', hi: 'हिन्दी' };
/** The same, short enough for a phone's header (each the start of its full name). */
export const LANGUAGE_SHORT_NAMES: Record<Language, string> = { en: 'EN', hi: 'हि' };

/**
 * The language of this page, read once from what the browser remembers and changed only by
 * changeLanguage. Every text (`m.x()`) asks the runtime for the language, which by default reads
 * localStorage and parses the address each time: thousands of times a screen, some 5 ms of a
 * desktop's main thread and four times that on a phone's.
 */
let kept: Language = getLocale();
overwriteGetLocale(() => kept);

/** The language texts are shown in now (English unless this browser remembers another). */
export const currentLanguage = (): Language => kept;

type LanguageContextValue = {
  language: Language;
  /** Shows every screen in `next` at once and remembers it in this browser. */
  changeLanguage: (next: Language) => void;
};

const LanguageContext = createContext<LanguageContextValue | null>(null);

/**
 * Holds the language. Texts are plain function calls (`m.signInButton()`) that read it when a
 * component renders, so a change draws the whole tree again under a new key: no component has to
 * subscribe to it, and cached data stays (the query client lives above this provider).
 */
export function LanguageProvider({ children }: { children: ReactNode }) {
  const [language, setLanguage] = useState<Language>(currentLanguage);
  const changeLanguage = useCallback((next: Language) => {
    // The runtime remembers it in this browser (it compares with the language kept until now).
    void setLocale(next, { reload: false });
    kept = next;
    setLanguage(next);
  }, []);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  const value = useMemo(() => ({ language, changeLanguage }), [language, changeLanguage]);
  return (
    <LanguageContext.Provider value={value}>
      <Fragment key={language}>{children}</Fragment>
    </LanguageContext.Provider>
  );
}

export function useLanguage(): LanguageContextValue {
  const value = useContext(LanguageContext);
  if (!value) throw new Error('useLanguage needs a LanguageProvider');
  return value;
}
