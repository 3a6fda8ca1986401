'use client';

import { createContext, type ReactNode, use, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fetchJson, type Meta, type WorkerChoice } from './api-types';
import {
  type Dictionary,
  dictionaries,
  isLocale,
  type Locale,
  localeFromLanguageTag,
  localeStorageKey,
} from './i18n';

type Workspace = {
  locale: Locale;
  setLocale: (locale: Locale) => void;
  t: Dictionary;
  worker: WorkerChoice;
  setWorker: (worker: WorkerChoice) => void;
  /** Read at request time by the chat transport, so a change applies to the next message without a remount. */
  workerRef: { readonly current: WorkerChoice };
  meta: Meta | null;
  /** Bumped when tickets or todos may have changed; the side panel refetches on change. */
  dataVersion: number;
  refreshData: () => void;
  /** Bumped when the chat list may have changed; the sidebar refetches on change. */
  chatsVersion: number;
  refreshChats: () => void;
};

const WorkspaceContext = createContext<Workspace | null>(null);

/**
 * State the page's leaves share: language, the pinned worker, server meta and
 * refresh signals. It lives in the root layout so it survives moving between chats.
 */
export function WorkspaceProvider({
  initialLocale,
  children,
}: {
  initialLocale: Locale;
  children: ReactNode;
}) {
  const [locale, setLocaleState] = useState<Locale>(initialLocale);
  const [worker, setWorkerState] = useState<WorkerChoice>('auto');
  const workerRef = useRef<WorkerChoice>('auto');
  const [meta, setMeta] = useState<Meta | null>(null);
  const [dataVersion, setDataVersion] = useState(0);
  const [chatsVersion, setChatsVersion] = useState(0);

  const setLocale = useCallback((next: Locale) => {
    setLocaleState(next);
    try {
      localStorage.setItem(localeStorageKey, next);
    } catch {
      // Storage can be disabled (private mode, policies); the cookie below still carries the choice.
    }
    // The cookie lets the server render the next page load in this language: no flash of English.
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we serve.
    document.cookie = `${localeStorageKey}=${next}; path=/; max-age=31536000; samesite=lax`;
  }, []);

  // The server guessed from Accept-Language; the browser knows better (a saved choice, then navigator.language).
  useEffect(() => {
    let saved: string | null = null;
    try {
      saved = localStorage.getItem(localeStorageKey);
    } catch {}
    const preferred = isLocale(saved) ? saved : localeFromLanguageTag(navigator.language);
    setLocaleState(preferred);
  }, []);

  useEffect(() => {
    document.documentElement.lang = locale === 'zh' ? 'zh-CN' : 'en';
  }, [locale]);

  useEffect(() => {
    let cancelled = false;
    fetchJson<Meta>('/api/meta')
      .then((value) => {
        if (!cancelled) setMeta(value);
      })
      .catch(() => {
        // The picker still works without meta: it lists the workers without their tools.
      });
    return () => {
      cancelled = true;
    };
  }, []);

  const setWorker = useCallback((next: WorkerChoice) => {
    workerRef.current = next;
    setWorkerState(next);
  }, []);
  const refreshData = useCallback(() => setDataVersion((version) => version + 1), []);
  const refreshChats = useCallback(() => setChatsVersion((version) => version + 1), []);

  const value = useMemo<Workspace>(
    () => ({
      locale,
      setLocale,
      t: dictionaries[locale],
      worker,
      setWorker,
      workerRef,
      meta,
      dataVersion,
      refreshData,
      chatsVersion,
      refreshChats,
    }),
    [locale, setLocale, worker, setWorker, meta, dataVersion, refreshData, chatsVersion, refreshChats],
  );
  return <WorkspaceContext value={value}>{children}</WorkspaceContext>;
}

/** The shared workspace state; throws outside {@link WorkspaceProvider} so a missing provider is loud. */
export function useWorkspace(): Workspace {
  const workspace = use(WorkspaceContext);
  if (workspace === null) throw new Error('useWorkspace must be used inside <WorkspaceProvider>');
  return workspace;
}
