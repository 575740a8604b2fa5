import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currentLanguage, type Language, LANGUAGES, setLanguage } from '../i18n/i18n';

/** English or Russian, each named in its own language; the choice is kept in this browser. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('common.language')}
      value={currentLanguage()}
      onChange={(value) => setLanguage(value as Language)}
      data={LANGUAGES.map((language) => ({ value: language, label: t(`languages.${language}`) }))}
    />
  );
}
