import './mantine-styles.css';
import './styles.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { Providers } from './app/providers';
import { AppRoutes } from './app/router';

const root = createRoot(document.getElementById('root')!);
// Rendered as a transition, the first render yields to the browser every few milliseconds instead
// of holding the main thread for the whole tree (a phone's CPU takes several times longer).
startTransition(() => {
  root.render(
    <StrictMode>
      <Providers>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </Providers>
    </StrictMode>,
  );
});
