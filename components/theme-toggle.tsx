'use client';

import { Moon, Sun } from 'lucide-react';
import { useEffect, useState } from 'react';
import { themeStorageKey } from './i18n';
import { Button } from './ui/button';
import { useWorkspace } from './workspace-provider';

/** A button that switches between light and dark and remembers the choice. */
export function ThemeToggle() {
  const { t } = useWorkspace();
  // null until mounted: the server cannot know the theme, and the script above already painted it.
  const [dark, setDark] = useState<boolean | null>(null);

  useEffect(() => {
    setDark(document.documentElement.classList.contains('dark'));
  }, []);

  function toggle() {
    const next = !document.documentElement.classList.contains('dark');
    document.documentElement.classList.toggle('dark', next);
    setDark(next);
    try {
      localStorage.setItem(themeStorageKey, next ? 'dark' : 'light');
    } catch {}
  }

  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={t.toggleTheme}
      aria-pressed={dark ?? undefined}
      onClick={toggle}
    >
      {dark ? <Sun /> : <Moon />}
    </Button>
  );
}
