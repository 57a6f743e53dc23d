import { useEffect, useState } from 'preact/hooks';

/** The page's place, from the location hash: `#/memories`, `#/memory/<id>`, `#/session/<id>`… */
export interface Route {
  screen: string;
  arg?: string;
}

export function parseHash(hash: string): Route {
  const [screen, ...rest] = hash.replace(/^#\/?/, '').split('/');
  const arg = rest.length ? decodeURIComponent(rest.join('/')) : undefined;
  return { screen: screen || 'memories', ...(arg === undefined ? {} : { arg }) };
}

export const href = (screen: string, arg?: string): string => `#/${screen}${arg === undefined ? '' : `/${encodeURIComponent(arg)}`}`;

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseHash(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}
