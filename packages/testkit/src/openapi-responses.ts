import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument, documentedRouteMatcher, type OpenApiDocument } from '@quire/api';

const DOCUMENT_ID = 'quire-openapi.json';

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * Checks real responses against the OpenAPI document the api serves: the status must be one the operation
 * documents, and a JSON body must match that status's schema. Requests to undocumented paths are not
 * checked here (openapi.int.test.ts makes sure every registered route is documented).
 */
export class OpenApiResponseChecker {
  private readonly document: OpenApiDocument = buildOpenApiDocument();
  private readonly routeOf = documentedRouteMatcher(this.document);
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor() {
    addFormats.default(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema(this.document, DOCUMENT_ID);
  }

  /** Throws when the response breaks the document; reads a clone, so the caller can still read the body. */
  async check(method: string, url: string, res: Response): Promise<void> {
    const pathname = new URL(url).pathname;
    const template = this.routeOf(method, pathname);
    if (!template) return;
    const where = `${method.toUpperCase()} ${template} answered ${res.status}`;
    const operation = this.document.paths?.[template]?.[method.toLowerCase() as 'get'];
    const response = operation?.responses?.[String(res.status)] as { content?: Record<string, unknown> } | undefined;
    if (!response) throw new Error(`${where}, a status the OpenAPI document does not list for it`);
    const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    if (mediaType !== 'application/json') return;
    if (!response.content?.['application/json'])
      throw new Error(`${where} with JSON, which the OpenAPI document does not describe`);
    const ref = `${DOCUMENT_ID}#/${pointer('paths', template, method.toLowerCase(), 'responses', String(res.status), 'content', 'application/json', 'schema')}`;
    let validate = this.validators.get(ref);
    if (!validate) this.validators.set(ref, (validate = this.ajv.compile({ $ref: ref })));
    const body: unknown = await res.clone().json();
    if (!validate(body)) {
      throw new Error(
        `${where} with a body that does not match the OpenAPI document: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
      );
    }
  }

  /** Throws unless `value` matches `#/components/schemas/<name>` (for what is not a JSON response, such as SSE data). */
  checkComponent(name: string, value: unknown): void {
    const ref = `${DOCUMENT_ID}#/components/schemas/${name}`;
    let validate = this.validators.get(ref);
    if (!validate) this.validators.set(ref, (validate = this.ajv.compile({ $ref: ref })));
    if (!validate(value))
      throw new Error(`${JSON.stringify(value)} is not a ${name}: ${this.ajv.errorsText(validate.errors)}`);
  }

  /** fetch, with every answer checked. */
  readonly fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const res = await fetch(input, init);
    const isRequest = input instanceof Request;
    await this.check(isRequest ? input.method : (init?.method ?? 'GET'), isRequest ? input.url : String(input), res);
    return res;
  };
}
