import type { OpenApiDocument } from './document.ts';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Finds the documented path template (`/api/v1/materials/{id}`) a request falls under, or undefined.
 * Static templates win over templated ones, as Express routes them (`/folders/tree` before `/folders/{id}`).
 */
export function documentedRouteMatcher(
  document: OpenApiDocument,
): (method: string, pathname: string) => string | undefined {
  const routes = Object.entries(document.paths ?? {})
    .map(([template, item]) => ({
      template,
      methods: new Set(Object.keys(item).filter((key) => METHODS.has(key))),
      pattern: new RegExp(
        `^${template
          .split('/')
          .map((part) => (/^\{.+\}$/.test(part) ? '[^/]+' : escape(part)))
          .join('/')}/?$`,
        'i',
      ),
      params: template.split('{').length - 1,
    }))
    .sort((a, b) => a.params - b.params);
  return (method, pathname) =>
    routes.find((r) => r.methods.has(method.toLowerCase()) && r.pattern.test(pathname))?.template;
}
