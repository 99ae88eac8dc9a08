import { SESSION_KEYS } from './constants';

/**
 * The one script written into the web app's page itself: before anything is drawn, it applies
 * the colour scheme the browser remembers (light, dark, or the system's), so that a console used in
 * the dark does not flash white while the app loads, and the page's language (`lang`, which
 * screen readers and fonts go by). With a session in this tab, it also has the browser fetch the
 * signed-in routes' files beside the entry (named by the script's `data-signed-in`), so that a
 * signed-in screen does not wait for it after the entry. The web build puts it in index.html; the
 * server allows exactly this text by its hash in the Content-Security-Policy (attributes are not
 * part of the hash).
 */
export const COLOR_SCHEME_STORAGE_KEY = 'mantine-color-scheme-value';
/** Where the browser remembers the language (the web app's text runtime uses the same key). */
export const LANGUAGE_STORAGE_KEY = 'bmet-language';

export const BOOT_SCRIPT =
  `try{var s=localStorage.getItem(${JSON.stringify(COLOR_SCHEME_STORAGE_KEY)});` +
  `if(s!=='light'&&s!=='dark')s=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';` +
  `document.documentElement.setAttribute('data-mantine-color-scheme',s);` +
  `var l=localStorage.getItem(${JSON.stringify(LANGUAGE_STORAGE_KEY)});if(l==='hi')document.documentElement.lang=l;` +
  `var r=document.currentScript.getAttribute('data-signed-in');` +
  `if(r&&sessionStorage.getItem(${JSON.stringify(SESSION_KEYS.idToken)})&&` +
  `sessionStorage.getItem(${JSON.stringify(SESSION_KEYS.expirationTime)})>Date.now()){` +
  `r.split(' ').forEach(function(h){var p=document.createElement('link');p.rel='modulepreload';p.href=h;` +
  `document.head.appendChild(p)})}}catch(e){}`;
