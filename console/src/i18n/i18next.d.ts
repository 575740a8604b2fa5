import 'i18next';
import type en from './en.json';

/** Every key the console asks for is checked against the English catalog at compile time (a typo fails typecheck). */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
