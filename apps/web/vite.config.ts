import { fileURLToPath } from 'node:url';
import { paraglideVitePlugin } from '@inlang/paraglide-js';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { BOOT_SCRIPT } from '../../packages/shared/src/boot-script';

/**
 * Mantine's ScrollArea (inside every table and dialog) takes one small hook, useMergeRefs, from
 * @floating-ui/react. The bundler keeps that package as one module, so each screen with a table
 * would load all of floating-ui (13 KB gzip) that only dropdowns use. ScrollArea gets the same
 * hook from src/lib/merge-refs.ts instead; dropdowns still import floating-ui itself.
 */
function scrollAreaMergeRefs(): Plugin {
  const replacement = fileURLToPath(new URL('./src/lib/merge-refs.ts', import.meta.url));
  return {
    name: 'scroll-area-merge-refs',
    enforce: 'pre',
    resolveId(source, importer) {
      if (
        source === '@floating-ui/react' &&
        importer &&
        /[\\/]ScrollArea[\\/]ScrollArea\.mjs$/.test(importer)
      ) {
        return replacement;
      }
      return null;
    },
  };
}

/**
 * India's state borders (`geojson-india`) come with coordinates to 15 decimals, 216 KB; to three
 * (about 100 m, finer than a border drawn at the zooms it is seen at) they weigh about half.
 */
function roundIndiaBorders(): Plugin {
  return {
    name: 'round-india-borders',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]geojson-india[\\/]india\.json$/.test(id)) return null;
      return { code: code.replace(/(\d+\.\d{3})\d+/g, '$1'), map: null };
    },
  };
}

type Bundle = Parameters<NonNullable<Extract<Plugin['generateBundle'], { handler: unknown }>['handler']>>[1];

/** A chunk's file and the files of everything it imports, transitively (what it needs to run). */
function staticClosure(bundle: Bundle, fileName: string, files = new Set<string>()) {
  const chunk = bundle[fileName];
  if (chunk?.type !== 'chunk' || files.has(fileName)) return files;
  files.add(fileName);
  for (const imported of chunk.imports) staticClosure(bundle, imported, files);
  return files;
}

function entryFiles(bundle: Bundle) {
  const files = new Set<string>();
  for (const chunk of Object.values(bundle))
    if (chunk.type === 'chunk' && chunk.isEntry) staticClosure(bundle, chunk.fileName, files);
  return files;
}

/**
 * The files of the first load (the entry and what it imports) are in the page before any screen
 * is loaded, so a lazy screen's list of files to preload leaves them out: the lists are part of
 * the entry, and naming the first load's files in each of them cost the sign-in screen bytes for
 * nothing (the preload helper skips a file already in the page). `shellFiles` is filled when the
 * bundle is written, before Vite writes the lists.
 */
const shellFiles = new Set<string>();

function shellFilesOf(): Plugin {
  return {
    name: 'shell-files',
    generateBundle: {
      order: 'pre',
      handler(_, bundle) {
        shellFiles.clear();
        for (const file of entryFiles(bundle)) shellFiles.add(file);
      },
    },
  };
}

/**
 * Writes the boot script (see @bmet/shared/boot-script) into the page's head, with the files of the
 * signed-in routes (src/app/staff-routes.tsx and what it imports beyond the entry) that it fetches
 * beside the entry when the tab has a session. They are named in an attribute: the server allows
 * the script by the hash of its text alone.
 */
function bootScript(): Plugin {
  let base = '/';
  return {
    name: 'boot-script',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_, { bundle }) {
        const staffRoutes =
          bundle &&
          Object.values(bundle).find(
            (chunk) => chunk.type === 'chunk' && chunk.facadeModuleId?.endsWith('/src/app/staff-routes.tsx'),
          );
        const inEntry = bundle ? entryFiles(bundle) : new Set<string>();
        const files = staffRoutes
          ? [...staticClosure(bundle, staffRoutes.fileName)].filter((file) => !inEntry.has(file))
          : [];
        return [
          {
            tag: 'script',
            attrs: files.length ? { 'data-signed-in': files.map((file) => base + file).join(' ') } : {},
            children: BOOT_SCRIPT,
            injectTo: 'head-prepend',
          },
        ];
      },
    },
  };
}

// In development the API runs on its own port; the web app's /api calls go to it.
const apiPort = process.env.API_PORT ?? '3000';

/**
 * While `npm run dev` runs, an edited catalogue is compiled again at once. Builds and tests use the
 * texts compiled by `npm run texts`, which every entry script runs first.
 */
async function textsWhileEditing(): Promise<Plugin | undefined> {
  const { TEXTS_OPTIONS } = await import('../../scripts/compile-texts.mjs');
  return {
    ...(paraglideVitePlugin(TEXTS_OPTIONS) as Plugin),
    apply: (_, env) => env.command === 'serve' && !process.env.VITEST,
  };
}

/**
 * React Router's package points every import at its development build, which keeps checks and
 * warnings meant for development; the production build beside it is the same code without them.
 */
const reactRouterProduction = fileURLToPath(
  new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url),
);

export default defineConfig(({ command }) => ({
  plugins: [
    scrollAreaMergeRefs(),
    roundIndiaBorders(),
    bootScript(),
    textsWhileEditing(),
    react(),
    shellFilesOf(),
  ],
  resolve: {
    alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  server: {
    port: 5173,
    proxy: { '/api': `http://localhost:${apiPort}` },
  },
  build: {
    outDir: 'dist',
    // Written for tools that read them from the build folder, but named in no bundle: the sources
    // are not for every visitor (the server never sends a map in production).
    sourcemap: 'hidden',
    // Read by scripts/check-budgets.mjs: which files each screen loads.
    manifest: true,
    chunkSizeWarningLimit: 700,
    // Every style in one sheet the page links: no sheet arrives with a chunk after the first paint
    // (decision 041).
    cssCodeSplit: false,
    modulePreload: {
      // The page's own preload links (hostType html) list the first load itself, and stay whole.
      resolveDependencies: (_, deps, { hostType }) =>
        hostType === 'js' ? deps.filter((dep) => !shellFiles.has(dep)) : deps,
    },
    rollupOptions: {
      // Chunks and style sheets named by their hash alone: the entry lists every lazy screen's files
      // for preloading, and module names in those lists were a kilobyte of the sign-in screen's
      // download. Seven characters, the shortest the bundler accepts below 4,096 chunks, took
      // another 200 bytes off; hashes of content still change with it, so caching stays safe.
      output: {
        chunkFileNames: 'assets/[hash:7].js',
        assetFileNames: (asset) =>
          asset.names.some((name) => name.endsWith('.css'))
            ? 'assets/[hash:7][extname]'
            : 'assets/[name]-[hash][extname]',
        codeSplitting: {
          groups: [
            // The first load in one file, the entry ('$initial': every module the entry imports,
            // whoever else imports it too). Left to the automatic split, what lazy screens share
            // with it (React, Mantine's inputs and transitions, constants) came in eight more files,
            // each compressed apart and with its own import and export lists: one file took 3.7 to
            // 4.7 KB off every screen's first load. Before the group below, which would split it.
            { name: 'initial', tags: ['$initial'], priority: 1 },
            // Mantine's core (factories, styles API, theme) in one chunk: left to the automatic
            // split, each new screen cut it into more small chunks, each named in the entry's
            // preload lists (a screen's route then cost the sign-in screen some 300 bytes; now
            // about 100). Its modules in the first load stay in the entry.
            { name: 'mantine-core', test: /@mantine[\\/]core[\\/]esm[\\/]core[\\/]/ },
          ],
        },
      },
    },
  },
}));
