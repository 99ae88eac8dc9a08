/**
 * The signed-in routes (`staff-routes.tsx`) load in a chunk of their own, never with the sign-in
 * screen. No signed-in screen waits for them in turn: with a session at start, the page's boot
 * script has the browser fetch the chunk beside the entry (`data-signed-in`, see vite.config.ts);
 * during a sign-in, `preloadStaffRoutes` fetches it while the server answers.
 */
let loading: Promise<typeof import('./staff-routes')> | null = null;

export function loadStaffRoutes() {
  loading ??= import('./staff-routes').catch((error: unknown) => {
    // Fetched again by the next attempt, not failed for the rest of the visit.
    loading = null;
    throw error;
  });
  return loading;
}

/** Starts loading the signed-in routes while a sign-in is under way; a failure shows when they are needed. */
export function preloadStaffRoutes() {
  loadStaffRoutes().catch(() => undefined);
}
