import { themeStorageKey } from './i18n';

/**
 * The inline script the root layout runs before first paint: it applies the saved
 * theme (or the system's) to <html>, so a dark-mode user never sees a white flash.
 * Kept out of the 'use client' toggle so the server layout gets the string itself.
 */
export const themeInitScript = `(function(){try{var t=localStorage.getItem(${JSON.stringify(themeStorageKey)});if(t!=='light'&&t!=='dark'){t=window.matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light'}document.documentElement.classList.toggle('dark',t==='dark')}catch(e){}})();`;
