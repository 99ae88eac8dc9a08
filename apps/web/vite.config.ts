import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the API runs on its own port; the web app's /api calls go to it.
const apiPort = process.env.API_PORT ?? '3000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': `http://localhost:${apiPort}` },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Read by scripts/check-budgets.mjs: which files each screen loads.
    manifest: true,
    chunkSizeWarningLimit: 700,
  },
});
