'use client';

import { dictionaries, isLocale, locales } from './i18n';
import { NativeSelect, NativeSelectOption } from './ui/native-select';
import { useWorkspace } from './workspace-provider';

/** Picks the UI language; each option names its language in that language. */
export function LocaleSwitch() {
  const { locale, setLocale, t } = useWorkspace();
  return (
    <NativeSelect
      aria-label={t.switchLanguage}
      value={locale}
      onChange={(event) => {
        if (isLocale(event.target.value)) setLocale(event.target.value);
      }}
      className="h-8 text-xs"
    >
      {locales.map((option) => (
        <NativeSelectOption key={option} value={option}>
          {dictionaries[option].languageName}
        </NativeSelectOption>
      ))}
    </NativeSelect>
  );
}
