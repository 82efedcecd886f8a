/**
 * Where the playground keeps the API key: this browser tab's sessionStorage, nowhere else. The portal session cookie
 * holds only the key id, so the browser is the only place the key exists after sign-in; closing the tab, signing out
 * or pressing "Forget key" removes it.
 */
const STORAGE_KEY = "lugha.playground.apiKey";

export function loadPlaygroundKey(): string | null {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function savePlaygroundKey(key: string): void {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, key);
  } catch {
    // storage disabled: the key stays in memory for this page only
  }
}

export function forgetPlaygroundKey(): void {
  try {
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
}

export const KEY_PATTERN = /^svc_[0-9a-f]{40}$/;
