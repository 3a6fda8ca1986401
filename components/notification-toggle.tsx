'use client';

import { Bell, BellOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { notifyStorageKey } from './i18n';
import { Button } from './ui/button';
import { useWorkspace } from './workspace-provider';

/** Whether the person opted in to desktop notifications here, and the browser still allows them. */
export function notificationsEnabled(): boolean {
  try {
    return (
      'Notification' in window &&
      Notification.permission === 'granted' &&
      localStorage.getItem(notifyStorageKey) === 'on'
    );
  } catch {
    return false;
  }
}

/**
 * The header's opt-in to desktop notifications for waiting cards. The browser's permission
 * prompt only ever comes from this click, never on its own; a second click turns them off here.
 */
export function NotificationToggle() {
  const { t } = useWorkspace();
  // null until mounted (and when the browser has no notifications): the server cannot know.
  const [enabled, setEnabled] = useState<boolean | null>(null);

  useEffect(() => {
    if ('Notification' in window) setEnabled(notificationsEnabled());
  }, []);

  async function toggle() {
    if (enabled) {
      localStorage.removeItem(notifyStorageKey);
      setEnabled(false);
      return;
    }
    const permission = await Notification.requestPermission();
    if (permission === 'granted') localStorage.setItem(notifyStorageKey, 'on');
    setEnabled(permission === 'granted');
  }

  if (enabled === null) return null;
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={t.desktopNotifications}
      aria-pressed={enabled}
      onClick={() => void toggle()}
    >
      {enabled ? <Bell /> : <BellOff />}
    </Button>
  );
}
