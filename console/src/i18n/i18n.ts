import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import ru from './ru.json';

/** The console's languages: English, and Russian for the support teams of the main market. */
export const LANGUAGES = ['en', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Where the operator's choice is kept, so it outlasts a reload and a sign-out. */
export const LANGUAGE_STORAGE_KEY = 'console.language';

/** The browser's preference (navigator.languages, most preferred first): the first Russian or English tag wins; English otherwise. */
export function languageFor(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary === 'ru' || primary === 'en') return primary;
  }
  return 'en';
}

function storedLanguage(): Language | null {
  try {
    const value = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : null;
  } catch {
    return null;
  }
}

/** The language shown now. */
export function currentLanguage(): Language {
  return i18next.language === 'ru' ? 'ru' : 'en';
}

/** Switches the console's language and remembers the choice in this browser. */
export function setLanguage(language: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // A browser that keeps nothing still switches, for this visit.
  }
  void i18next.changeLanguage(language);
}

/** The page's own language (`<html lang>`, which screen readers and hyphenation read) and title follow the console's. */
i18next.on('languageChanged', () => {
  document.documentElement.lang = currentLanguage();
  document.title = i18next.t('common.documentTitle');
});

// Both catalogs are in the bundle (a few KB gzipped), so the first screen renders in its language at once.
void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, ru: { translation: ru } },
  lng: storedLanguage() ?? languageFor(navigator.languages ?? [navigator.language]),
  fallbackLng: 'en',
  supportedLngs: LANGUAGES,
  initAsync: false,
  // React escapes what it renders; escaping here too would show "&amp;".
  interpolation: { escapeValue: false },
});

export { i18next };
