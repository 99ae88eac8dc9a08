import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { Session } from './session';
import { clearSession, readSession, saveSession } from './session';

type SessionContextValue = {
  session: Session | null;
  startSession: (session: Session) => void;
  endSession: () => void;
};

const SessionContext = createContext<SessionContextValue | null>(null);

/** Holds the session read once from session storage at load, as the spec says. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(() => readSession());
  const startSession = useCallback((next: Session) => {
    saveSession(next);
    setSession(next);
  }, []);
  const endSession = useCallback(() => {
    clearSession();
    setSession(null);
  }, []);
  const value = useMemo(() => ({ session, startSession, endSession }), [session, startSession, endSession]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession needs a SessionProvider');
  return value;
}
