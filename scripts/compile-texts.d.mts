export declare const TEXTS_OPTIONS: {
  project: string;
  outdir: string;
  strategy: Array<'localStorage' | 'baseLocale'>;
  localStorageKey: string;
  emitTsDeclarations: boolean;
  emitReadme: boolean;
};
