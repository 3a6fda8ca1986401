'use client';

import { createContext, type ReactNode, use, useSyncExternalStore } from 'react';

const AllowedImageOriginsContext = createContext<readonly string[]>([]);

/**
 * Carries the server's `TOOLGATE_ALLOWED_IMAGE_ORIGINS` to the markdown renderer, so
 * the operator configures it once, at run time, without a public build variable.
 */
export function MarkdownPolicyProvider({
  allowedImageOrigins,
  children,
}: {
  allowedImageOrigins: readonly string[];
  children: ReactNode;
}) {
  return <AllowedImageOriginsContext value={allowedImageOrigins}>{children}</AllowedImageOriginsContext>;
}

/** Origins besides this site's own whose images model text may show. */
export function useAllowedImageOrigins(): readonly string[] {
  return use(AllowedImageOriginsContext);
}

// Never changes while the page lives; there is nothing to subscribe to.
const subscribeNever = () => () => {};

/**
 * A placeholder while rendering on the server, where there is no window: only
 * relative URLs resolve to it, and those are this site's anyway. Messages render
 * in the browser, which then uses its real origin.
 */
const serverOrigin = 'http://site.invalid';

/** This page's origin as the browser sees it (through any proxy). */
export function useSiteOrigin(): string {
  return useSyncExternalStore(
    subscribeNever,
    () => window.location.origin,
    () => serverOrigin,
  );
}
