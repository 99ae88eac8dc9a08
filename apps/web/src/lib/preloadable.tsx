import { lazy, useState, type ComponentType } from 'react';

/**
 * A component whose code loads on demand, like React.lazy, that can also be loaded ahead
 * (`preload`). Drawn after its code has come, it is drawn at once, in the same pass: a React.lazy
 * component suspends on its first drawing even then, and the browser's own Print, which draws the
 * page in one pass and cannot wait, would print its fallback.
 */
export function preloadable<Props extends object>(load: () => Promise<ComponentType<Props>>) {
  let loaded: ComponentType<Props> | null = null;
  const preload = () =>
    load().then((component) => {
      loaded = component;
      return component;
    });
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Preloadable(props: Props) {
    // Chosen once for the part's life: turning from one to the other would draw it afresh.
    const [Component] = useState<ComponentType<Props>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return { Component: Preloadable, preload };
}
