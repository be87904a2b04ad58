// Generated from openapi.json (the api's OpenAPI document) by `npm run client:generate`; do not edit.
// A unit test (schema.test.ts) fails when this file no longer matches the document.

export interface paths {
    "/api/v1/materials/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a file
         * @description Stores the file and answers at once; processing continues in the background.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Repeat a creating request safely: the same key and request get the first response again for 24 hours */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        name: string;
                        folderId?: string | null;
                        /**
                         * @description Extract embedded images, keyframes and renditions
                         * @default true
                         * @enum {string}
                         */
                        extractImages?: "true" | "false";
                        /** @description A JSON array of {title, url} */
                        references?: string;
                        /** @description OCR languages, comma separated (e.g. `eng,fra`); each must be installed, else 400 */
                        ocrLanguages?: string;
                        /**
                         * Format: binary
                         * @description The file; its type is decided from its bytes
                         */
                        file: string;
                    };
                };
            };
            responses: {
                /** @description The material, `processing` */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The Idempotency-Key was already used with a different request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/upload/file-and-process": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload a file and wait for processing */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Repeat a creating request safely: the same key and request get the first response again for 24 hours */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        name: string;
                        folderId?: string | null;
                        /**
                         * @description Extract embedded images, keyframes and renditions
                         * @default true
                         * @enum {string}
                         */
                        extractImages?: "true" | "false";
                        /** @description A JSON array of {title, url} */
                        references?: string;
                        /** @description OCR languages, comma separated (e.g. `eng,fra`); each must be installed, else 400 */
                        ocrLanguages?: string;
                        /**
                         * @description How long to wait before answering 202
                         * @default 300000
                         */
                        timeoutMs?: number;
                        /**
                         * @description How often the database is re-read while waiting, in case the completion event is lost
                         * @default 2000
                         */
                        pollIntervalMs?: number;
                        /**
                         * Format: binary
                         * @description The file; its type is decided from its bytes
                         */
                        file: string;
                    };
                };
            };
            responses: {
                /** @description Processed: the material, `active` */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description Still processing when `timeoutMs` ran out; processing goes on */
                202: {
                    headers: {
                        /** @description URL of `GET /api/v1/materials/{id}` */
                        Location: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Processing failed (`message` says why), or the Idempotency-Key was used with a different request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ProcessingFailed"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/upload-and-process": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create from text or a URL and wait for processing
         * @description A URL is fetched by the server; a `content.type` that contradicts the fetched bytes is 400.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Repeat a creating request safely: the same key and request get the first response again for 24 hours */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        content: {
                            text?: string;
                            /** Format: uri */
                            url?: string;
                            /** Format: uri */
                            sourceUrl?: string;
                            /** @enum {string} */
                            type?: "text" | "pdf" | "video" | "audio" | "url";
                        };
                        folderId?: string | null;
                        references?: {
                            title: string;
                            /** Format: uri */
                            url: string;
                        }[];
                        extractImages?: boolean;
                        /** @description Languages OCR reads this material in (scans, images), e.g. ["eng","fra"]; each must be installed (OCR_LANGUAGES), else 400. Default: every installed language */
                        ocrLanguages?: string[];
                        /**
                         * @description How long to wait before answering 202
                         * @default 300000
                         */
                        timeoutMs?: number;
                        /**
                         * @description How often the database is re-read while waiting, in case the completion event is lost
                         * @default 2000
                         */
                        pollIntervalMs?: number;
                    };
                };
            };
            responses: {
                /** @description Processed: the material, `active` */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description Still processing when `timeoutMs` ran out; processing goes on */
                202: {
                    headers: {
                        /** @description URL of `GET /api/v1/materials/{id}` */
                        Location: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Processing failed (`message` says why), or the Idempotency-Key was used with a different request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ProcessingFailed"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List materials, newest first */
        get: {
            parameters: {
                query?: {
                    folderId?: string;
                    page?: number;
                    limit?: number;
                    search?: string;
                    /** @description Comma-separated heavy fields to bring back into each item: `text`, `pages`, `chapters`, `images` (see MaterialListItem) */
                    include?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MaterialPage"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create from text or a URL without waiting */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Repeat a creating request safely: the same key and request get the first response again for 24 hours */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        content: {
                            text?: string;
                            /** Format: uri */
                            url?: string;
                            /** Format: uri */
                            sourceUrl?: string;
                            /** @enum {string} */
                            type?: "text" | "pdf" | "video" | "audio" | "url";
                        };
                        folderId?: string | null;
                        references?: {
                            title: string;
                            /** Format: uri */
                            url: string;
                        }[];
                        extractImages?: boolean;
                        /** @description Languages OCR reads this material in (scans, images), e.g. ["eng","fra"]; each must be installed (OCR_LANGUAGES), else 400. Default: every installed language */
                        ocrLanguages?: string[];
                    };
                };
            };
            responses: {
                /** @description The material, `processing` */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The Idempotency-Key was already used with a different request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/upload/url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create from a URL without waiting */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Repeat a creating request safely: the same key and request get the first response again for 24 hours */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        /** Format: uri */
                        url: string;
                        folderId?: string | null;
                    };
                };
            };
            responses: {
                /** @description The material, `processing` */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The Idempotency-Key was already used with a different request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/upload/url-and-process": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create from a URL and wait for processing */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Repeat a creating request safely: the same key and request get the first response again for 24 hours */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: uri */
                        url: string;
                        name: string;
                        folderId?: string | null;
                        references?: {
                            title: string;
                            /** Format: uri */
                            url: string;
                        }[];
                        /**
                         * @description How long to wait before answering 202
                         * @default 300000
                         */
                        timeoutMs?: number;
                        /**
                         * @description How often the database is re-read while waiting, in case the completion event is lost
                         * @default 2000
                         */
                        pollIntervalMs?: number;
                    };
                };
            };
            responses: {
                /** @description Processed: the material, `active` */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description Still processing when `timeoutMs` ran out; processing goes on */
                202: {
                    headers: {
                        /** @description URL of `GET /api/v1/materials/{id}` */
                        Location: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Processing failed (`message` says why), or the Idempotency-Key was used with a different request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ProcessingFailed"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create upload slots
         * @description `PUT` each file to its `uploadUrl`, then confirm it with `POST /upload/complete`.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Repeat a creating request safely: the same key and request get the first response again for 24 hours */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        materials: {
                            name: string;
                            filename: string;
                            contentType: string;
                            folderId?: string | null;
                            /** @description Languages OCR reads this material in (scans, images), e.g. ["eng","fra"]; each must be installed (OCR_LANGUAGES), else 400. Default: every installed language */
                            ocrLanguages?: string[];
                        }[];
                    };
                };
            };
            responses: {
                /** @description One handle per item, in order */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BatchUploadHandle"][];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The Idempotency-Key was already used with a different request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/upload/presigned-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create one upload slot */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Repeat a creating request safely: the same key and request get the first response again for 24 hours */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        filename: string;
                        contentType: string;
                        name: string;
                        folderId?: string | null;
                        extractImages?: boolean;
                        /** @description Languages OCR reads this material in (scans, images), e.g. ["eng","fra"]; each must be installed (OCR_LANGUAGES), else 400. Default: every installed language */
                        ocrLanguages?: string[];
                        references?: {
                            title: string;
                            /** Format: uri */
                            url: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Where to `PUT` the file */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UploadHandle"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The Idempotency-Key was already used with a different request */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/upload/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm an uploaded file and start processing
         * @description Idempotent: a material already completed is returned unchanged.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        materialId: string;
                        s3Key: string;
                    };
                };
            };
            responses: {
                /** @description The material, `processing` */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a material */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Material id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The material */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a material and its stored objects */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Material id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            id: string;
                        };
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Replace the references */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Material id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        references?: {
                            title: string;
                            /** Format: uri */
                            url: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description The material */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/materials/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow processing live (Server-Sent Events)
         * @description A `text/event-stream` of `status` messages (data: `MaterialStatusEvent`) and `progress` messages (data: `MaterialProgressEvent`). The first message is the current status. The stream closes after the status becomes `active`, `error` or `deleted`; a material already settled gets one message. Comment lines (`: heartbeat`) keep an idle stream open. Send `x-api-key` like on every endpoint (use a fetch-based SSE client: the browser's `EventSource` cannot send headers).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Material id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The event stream; the schema is that of one message's `data` (OpenAPI 3.1 cannot describe a stream) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example event: status
                         *     data: {"_id":"…","status":"processing","progress":5}
                         *
                         *     event: progress
                         *     data: {"_id":"…","progress":50}
                         *
                         *     event: status
                         *     data: {"_id":"…","status":"active"}
                         */
                        "text/event-stream": components["schemas"]["MaterialStatusEvent"] | components["schemas"]["MaterialProgressEvent"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search the extracted text of active materials
         * @description Passages holding any of the query words, ranked by BM25 of the passage and of its whole material (rare words count more, long texts are normalised), with query words found side by side counting extra. A word none of the organization's passages holds is taken for its most similar one. `"quoted phrases"` must occur word for word, `-word` must not occur. At most `passagesPerMaterial` passages of one material are returned.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        query: string;
                        /** @default 5 */
                        topK?: number;
                        /**
                         * @description How many passages of one material may be among the results (its best ones)
                         * @default 1
                         */
                        passagesPerMaterial?: number;
                        materialIds?: string[];
                        folderIds?: string[];
                    };
                };
            };
            responses: {
                /** @description Ranked passages */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SearchResults"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/bulk/move": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Move several materials into a folder (or out of every folder) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        materialIds: string[];
                        folderId: string | null;
                    };
                };
            };
            responses: {
                /** @description All were moved */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            movedCount: number;
                        };
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/{id}/move": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Move a material into a folder (or out of every folder) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Material id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        folderId: string | null;
                    };
                };
            };
            responses: {
                /** @description The material */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/{id}/rename": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rename a material */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Material id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description The material */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/{id}/reprocess": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run extraction again
         * @description The previous result stays until the new one is ready. Only `active` and `error` materials can be reprocessed.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Material id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The material, `processing` */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Material"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/{id}/download-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A time-limited URL of the material's content
         * @description A file's original, a URL material's fetched bytes (409 until fetched), or a text material's text as `text/plain`. 409 while an upload is awaited, or when an S3 original was overwritten after `upload/complete`. The URL serves the original's `content.mimeType` (`application/pdf`, ...) with `Content-Disposition: inline` and its file name (RFC 6266, RFC 5987 past ASCII), so a browser or viewer shows it; `download=1` makes it an `attachment`.
         */
        get: {
            parameters: {
                query?: {
                    expiresIn?: number;
                    /** @description `1`: the URL saves the file (`attachment`) instead of showing it (`inline`) */
                    download?: "0" | "1" | "true" | "false";
                };
                header?: never;
                path: {
                    /** @description Material id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The URL */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            downloadUrl: string;
                        };
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/{id}/text": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The whole extracted text, its segments with their positions, or the document as Markdown
         * @description Works for text of any size (also when it is too long for `metadata.extractedText` and the material has `metadata.textUrl` instead): the body is streamed from storage. With `format=json` (or `Accept: application/json`), a page of segments in reading order; with `format=ndjson` (or `Accept: application/x-ndjson`), all of them, one per line. Each segment says where it is (`page`, `chapter`, `startMs`/`endMs`), how it was read (`source`: `text-layer`, `ocr`, `transcript`; OCR adds `confidence`) and where it starts in the whole text (`offset`): `text.slice(offset, offset + length)` is the segment. No segment is longer than 16,384 characters: a long text comes as consecutive segments cut at paragraph breaks. Each segment is an element of the document: `kind` (`heading`, `list-item`, `table`, `figure`, `code`...; absent for a paragraph), a heading's `level` or a list item's depth, `path` (the headings it stands under, outermost first), a table's `rows` of cells, a figure's `image` (an id of `metadata.images`) and, for PDFs, `box`. With `format=markdown` (or `Accept: text/markdown`), the whole document as CommonMark with GFM tables: page and slide changes as HTML comments, figures as images linked to their signed URLs; a material processed before structure was kept reads as its paragraphs. 409 while the material is not `active`; 406 when, without `format`, `Accept` takes none of the four media types.
         */
        get: {
            parameters: {
                query?: {
                    /** @description `text` (the default): the whole text, `text/plain`. `json`: a page of segments with their positions. `ndjson`: every segment, one JSON object per line, streamed. `markdown`: the whole document as CommonMark with GFM tables, streamed. Without it, `Accept: application/json`, `application/x-ndjson` or `text/markdown` chooses. */
                    format?: "text" | "json" | "ndjson" | "markdown";
                    /** @description With `format=json` */
                    page?: number;
                    /** @description Segments per page (`json`) */
                    limit?: number;
                    /** @description With `format=json`: the index of the first segment, instead of `page` (a page's `next`) */
                    start?: number | null;
                };
                header?: never;
                path: {
                    /** @description Material id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The text (`text/plain`), a page of segments (`application/json`), every segment (NDJSON), or the document as Markdown (`text/markdown`) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain; charset=utf-8": string;
                        "application/json": components["schemas"]["TextSegmentPage"];
                        /** @example {"text":"…","offset":0,"page":1,"source":"text-layer"} */
                        "application/x-ndjson": components["schemas"]["TextSegment"];
                        /**
                         * @example <!-- page 1 -->
                         *
                         *     # Cells
                         *
                         *     - Nucleus
                         *     - Ribosome
                         *
                         *     | Name | Role |
                         *     |---|---|
                         *     | Mitochondrion | ATP |
                         */
                        "text/markdown; charset=utf-8": string;
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The `Accept` header takes none of the media types this endpoint serves */
                406: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/{id}/job-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The material's processing job: status, progress, result */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Material id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The job */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JobStatus"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/{id}/debug": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The material as stored, its images, and how its transcript was made */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Material id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description What quire holds */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MaterialDebugInfo"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/{id}/cancel-job": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel processing
         * @description A queued job is removed; a running one is stopped on whichever worker runs it (its extraction process is killed), and a long recording's chunk jobs with it. The material ends `error` with code `CANCELLED` (a `material.failed` webhook is sent) and can be reprocessed. Answers once the jobs have stopped. A material not being processed is 409, and so is a job that finished before the cancel could take effect.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Material id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Cancelled */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CancelledJob"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Not provided: generate a material with a language model
         * @description Always 501: quire includes no language model. Whatever the body, nothing is created.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not provided by quire (the message says why and what to use instead) */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/materials/generate-and-process": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Not provided: generate and process a material with a language model
         * @description Always 501: quire includes no language model. Whatever the body, nothing is created.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Not provided by quire (the message says why and what to use instead) */
                501: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/folders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List folders
         * @description A bare JSON array, as the public service answers it; `page` and `limit` page through a long list and the `X-Total-Count`, `X-Page` and `X-Total-Pages` headers say how far it goes.
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    search?: string;
                    parentFolderId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page of folders */
                200: {
                    headers: {
                        /** @description Folders in the whole list */
                        "X-Total-Count": string;
                        /** @description This page (1-based) */
                        "X-Page": string;
                        /** @description Pages in the whole list at this `limit` */
                        "X-Total-Pages": string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Folder"][];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create a folder */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Repeat a creating request safely: the same key and request get the first response again for 24 hours */
                    "idempotency-key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        parentFolderId?: string | null;
                        description?: string | null;
                        metadata?: {
                            /**
                             * @description `#rrggbb`, or a palette name (`teal`, `rose`, ...)
                             * @example #3b82f6
                             */
                            color?: string | null;
                            /**
                             * @description An icon name: 1 to 32 of `a-z`, `0-9`, `-`
                             * @example folder
                             * @example book-open
                             */
                            icon?: string | null;
                        };
                    };
                };
            };
            responses: {
                /** @description The folder */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Folder"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/folders/tree": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every folder, nested, with material counts
         * @description A bare JSON array of the top-level folders, each with its `subfolders` nested.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The top-level folders */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["FolderTreeNode"][];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/folders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a folder with its subfolders and its materials
         * @description `materials` is one page of the materials directly in the folder, as `GET /{id}/materials` answers it (the first page unless `page` says otherwise); `materialCount` and `totalSize` count all of them.
         */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    search?: string;
                    /** @description Comma-separated heavy fields to bring back into each item: `text`, `pages`, `chapters`, `images` (see MaterialListItem) */
                    include?: string;
                };
                header?: never;
                path: {
                    /** @description Folder id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The folder */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["FolderDetail"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an empty folder */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Folder id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            id: string;
                        };
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Rename or re-describe a folder */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Folder id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        description?: string | null;
                        metadata?: {
                            /**
                             * @description `#rrggbb`, or a palette name (`teal`, `rose`, ...)
                             * @example #3b82f6
                             */
                            color?: string | null;
                            /**
                             * @description An icon name: 1 to 32 of `a-z`, `0-9`, `-`
                             * @example folder
                             * @example book-open
                             */
                            icon?: string | null;
                        };
                    };
                };
            };
            responses: {
                /** @description The folder */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Folder"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/folders/{id}/materials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the materials in a folder */
        get: {
            parameters: {
                query?: {
                    page?: number;
                    limit?: number;
                    search?: string;
                    /** @description Comma-separated heavy fields to bring back into each item: `text`, `pages`, `chapters`, `images` (see MaterialListItem) */
                    include?: string;
                };
                header?: never;
                path: {
                    /** @description Folder id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MaterialPage"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/folders/{id}/move": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Move a folder under another (or to the top) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Folder id */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        parentFolderId: string | null;
                    };
                };
            };
            responses: {
                /** @description The folder */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Folder"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The resource is in a state that does not allow this */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/usage/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the key's group's events (or its organization's, or one of its groups'), newest first
         * @description A key with a group sees its group's events and quire's own events of no group (a material's `material_*`, the API calls of keys without a group). An unknown query parameter is a 400; so is a `groupId` other than its own for a key with a group.
         */
        get: {
            parameters: {
                query?: {
                    /** @description ISO 8601; a date alone means the start of that UTC day */
                    startDate?: string;
                    /** @description ISO 8601; a date alone means the end (23:59:59.999) of that UTC day */
                    endDate?: string;
                    eventType?: "live_session_created" | "live_chat_message_sent" | "test_created" | "test_question_created" | "test_question_answered" | "test_chat_question" | "engagement" | "tutor_me_message_sent" | "material_chat_message_sent" | "main_chat_message_sent" | "flashcard_set_created" | "flashcard_created" | "flashcard_chat_question" | "explainer_video_created" | "material_created" | "material_uploaded" | "material_processed" | "material_deleted" | "component_created" | "component_accessed" | "component_deleted" | "component_usage" | "chat_message_sent" | "chat_session_started" | "chat_session_ended" | "chat_feedback" | "test_started" | "test_completed" | "test_retaken" | "audio_recap_create" | "assignment_grader_create" | "api_call" | "cache_hit" | "sso_login" | "sso_logout" | "student_performance";
                    userId?: string;
                    groupId?: string;
                    /** @description The resource an event is about: a material's id for `material_*` */
                    resourceId?: string;
                    limit?: number;
                    offset?: number | null;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            events: components["schemas"]["UsageEvent"][];
                            limit: number;
                            offset: number;
                            hasMore: boolean;
                        };
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description `groupId` names no group of the organization */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Report activity (1..1000 events), idempotent by eventId
         * @description The whole batch is stored or none of it: the first bad event is named in the 400 (`index`, `message` `events[i].field: ...`). A key with a group files every event under it; a key without one needs `groupId` on each event.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        events: {
                            eventId: string;
                            /** @enum {string} */
                            type: "live_session_created" | "live_chat_message_sent" | "test_created" | "test_question_created" | "test_question_answered" | "test_chat_question" | "engagement" | "tutor_me_message_sent" | "material_chat_message_sent" | "main_chat_message_sent" | "flashcard_set_created" | "flashcard_created" | "flashcard_chat_question" | "explainer_video_created" | "material_created" | "material_uploaded" | "material_processed" | "material_deleted" | "component_created" | "component_accessed" | "component_deleted" | "component_usage" | "chat_message_sent" | "chat_session_started" | "chat_session_ended" | "chat_feedback" | "test_started" | "test_completed" | "test_retaken" | "audio_recap_create" | "assignment_grader_create" | "api_call" | "cache_hit" | "sso_login" | "sso_logout" | "student_performance";
                            userId: string;
                            userName?: string | null;
                            groupId?: string | null;
                            /** Format: date-time */
                            occurredAt: string;
                            value?: number | null;
                            properties?: {
                                [key: string]: unknown;
                            } | null;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Counted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            duplicates: number;
                        };
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/usage/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage per UTC hour, day or month of the key's group (or its organization), in total or per user or group
         * @description Periods are UTC hours, days or calendar months; the first and last are cut to `startDate`/`endDate` (both inclusive). Without `groupBy` every period is listed, zeros included; with it, only the users or groups active in a period. Answered from the daily counters of the group reports, which count the analytics types only. `groupBy=model` lists the same figures under one model, `none` (quire runs no model), in the periods with events. `groupBy=endpoint` counts the `api_call` events instead (as recorded, see `API_CALL_EVENTS`): per period and route template, `events` calls and their `durationMs`.
         */
        get: {
            parameters: {
                query: {
                    period: "hourly" | "daily" | "monthly";
                    /** @description ISO 8601; a date alone means the start of that UTC day */
                    startDate: string;
                    /** @description ISO 8601; a date alone means the end (23:59:59.999) of that UTC day */
                    endDate: string;
                    groupBy?: "user" | "group" | "model" | "endpoint";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The summary */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UsageSummary"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/usage/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage totals of the key's group (or its organization) over a range, by event type, with active users
         * @description `startDate` defaults to 2025-01-01 and `endDate` to now (both inclusive, read like the reports' dates). `groupId` narrows a key without a group to one of its groups (404 for another organization's); a key with a group may name only its own (400). `userId` counts one user. Answered from the daily counters of the group reports.
         */
        get: {
            parameters: {
                query?: {
                    /** @description ISO 8601; a date alone means the start of that UTC day */
                    startDate?: string;
                    /** @description ISO 8601; a date alone means the end (23:59:59.999) of that UTC day */
                    endDate?: string;
                    /** @description One group's usage (a key with a group may name only its own) */
                    groupId?: string;
                    /** @description One user's usage (the `userId` the events carried) */
                    userId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The totals */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UsageStats"];
                    };
                };
                /** @description The request is invalid; `message` and `details` name the field */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description Not found (also when it belongs to another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/groups/live-lecture": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Live lecture usage: sessions made and chat messages
         * @description The key's group must have an active plan, else 403 `{"error":"Unauthorized"}`. Parameters go in the query; the range is cut into 7-day windows from `startDate`, both ends inclusive.
         */
        post: {
            parameters: {
                query?: {
                    /** @description ISO 8601; a date alone means the start of that UTC day */
                    startDate?: string;
                    /** @description ISO 8601; a date alone means the end (23:59:59.999) of that UTC day */
                    endDate?: string;
                    students?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The reports */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GroupReport"];
                    };
                };
                /** @description A parameter is unparseable, `startDate` is after `endDate`, or the range is too long (`Missing params`); or the body is not JSON (the error body) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissingParams"] | components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/groups/tests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test usage: tests and questions made, questions answered (in)correctly, chat questions
         * @description The key's group must have an active plan, else 403 `{"error":"Unauthorized"}`. Parameters go in the query; the range is cut into 7-day windows from `startDate`, both ends inclusive.
         */
        post: {
            parameters: {
                query?: {
                    /** @description ISO 8601; a date alone means the start of that UTC day */
                    startDate?: string;
                    /** @description ISO 8601; a date alone means the end (23:59:59.999) of that UTC day */
                    endDate?: string;
                    students?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The reports */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GroupReport"];
                    };
                };
                /** @description A parameter is unparseable, `startDate` is after `endDate`, or the range is too long (`Missing params`); or the body is not JSON (the error body) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissingParams"] | components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/groups/engagement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Minutes engaged
         * @description The key's group must have an active plan, else 403 `{"error":"Unauthorized"}`. Parameters go in the query; the range is cut into 7-day windows from `startDate`, both ends inclusive.
         */
        post: {
            parameters: {
                query?: {
                    /** @description ISO 8601; a date alone means the start of that UTC day */
                    startDate?: string;
                    /** @description ISO 8601; a date alone means the end (23:59:59.999) of that UTC day */
                    endDate?: string;
                    students?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The reports */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GroupReport"];
                    };
                };
                /** @description A parameter is unparseable, `startDate` is after `endDate`, or the range is too long (`Missing params`); or the body is not JSON (the error body) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissingParams"] | components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/groups/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Chat messages: the total, then Tutor Me, test, flashcard, material, live lecture and main chat messages
         * @description The key's group must have an active plan, else 403 `{"error":"Unauthorized"}`. Parameters go in the query; the range is cut into 7-day windows from `startDate`, both ends inclusive.
         */
        post: {
            parameters: {
                query?: {
                    /** @description ISO 8601; a date alone means the start of that UTC day */
                    startDate?: string;
                    /** @description ISO 8601; a date alone means the end (23:59:59.999) of that UTC day */
                    endDate?: string;
                    students?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The reports */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GroupReport"];
                    };
                };
                /** @description A parameter is unparseable, `startDate` is after `endDate`, or the range is too long (`Missing params`); or the body is not JSON (the error body) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissingParams"] | components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/groups/flashcards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Flashcards: sets made, flashcards made, chat questions
         * @description The key's group must have an active plan, else 403 `{"error":"Unauthorized"}`. Parameters go in the query; the range is cut into 7-day windows from `startDate`, both ends inclusive.
         */
        post: {
            parameters: {
                query?: {
                    /** @description ISO 8601; a date alone means the start of that UTC day */
                    startDate?: string;
                    /** @description ISO 8601; a date alone means the end (23:59:59.999) of that UTC day */
                    endDate?: string;
                    students?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The reports */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GroupReport"];
                    };
                };
                /** @description A parameter is unparseable, `startDate` is after `endDate`, or the range is too long (`Missing params`); or the body is not JSON (the error body) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissingParams"] | components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/groups/explainers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Explainer videos made
         * @description The key's group must have an active plan, else 403 `{"error":"Unauthorized"}`. Parameters go in the query; the range is cut into 7-day windows from `startDate`, both ends inclusive.
         */
        post: {
            parameters: {
                query?: {
                    /** @description ISO 8601; a date alone means the start of that UTC day */
                    startDate?: string;
                    /** @description ISO 8601; a date alone means the end (23:59:59.999) of that UTC day */
                    endDate?: string;
                    students?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The reports */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["GroupReport"];
                    };
                };
                /** @description A parameter is unparseable, `startDate` is after `endDate`, or the range is too long (`Missing params`); or the body is not JSON (the error body) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MissingParams"] | components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Missing, unknown or revoked `x-api-key` */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Unauthorized"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The file is not a supported type, its bytes contradict the type it was sent as, or the body has an unsupported encoding */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Rate limited: see the `RateLimit` and `RateLimit-Policy` headers */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description Postgres, Redis or storage is unavailable; retry after `Retry-After` seconds */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/put": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Upload a file to an upload URL (local-disk driver)
         * @description One body per URL: the first complete PUT wins; another PUT while it runs, or after it, is 409, and so is one after `/upload/complete`. A PUT for a deleted material is 404. With the S3 driver, upload URLs point at the object store instead.
         */
        put: {
            parameters: {
                query: {
                    /** @description Object key */
                    key: string;
                    /** @description Expiry, Unix seconds */
                    expires: string;
                    /** @description HMAC-SHA256 of the operation, key, expiry, file name, type and disposition */
                    sig: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/octet-stream": string;
                };
            };
            responses: {
                /** @description Stored */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            key: string;
                            size: number;
                        };
                    };
                };
                /** @description The URL is expired or its signature is wrong */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The material of this upload URL was deleted */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description This upload URL has already been used, or another upload to it is in progress */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The body, the file or a field is larger than the configured limit */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/get": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download an object from a download URL (local-disk driver) */
        get: {
            parameters: {
                query: {
                    /** @description Object key */
                    key: string;
                    /** @description Expiry, Unix seconds */
                    expires: string;
                    /** @description HMAC-SHA256 of the operation, key, expiry, file name, type and disposition */
                    sig: string;
                    filename?: string;
                    /** @description The Content-Type served */
                    type?: string;
                    disposition?: "inline" | "attachment";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The bytes */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/octet-stream": string;
                    };
                };
                /** @description The URL is expired or its signature is wrong */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The object does not exist */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Alive */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ok";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: Postgres, Redis and storage answer */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Ready */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ready" | "not ready";
                            /** @description `ok` or `unavailable: <reason>` for postgres, redis and storage */
                            checks: {
                                [key: string]: string;
                            };
                        };
                    };
                };
                /** @description A dependency is down; `checks` names it */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ready" | "not ready";
                            /** @description `ok` or `unavailable: <reason>` for postgres, redis and storage */
                            checks: {
                                [key: string]: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The api process's Prometheus metrics
         * @description HTTP latency by route template and status, queue depth by state, and process metrics. Each worker serves its own (job durations, extraction failures) on `WORKER_METRICS_PORT`.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Prometheus text exposition format */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain; version=0.0.4": string;
                    };
                };
                /** @description `METRICS_TOKEN` is set and the request does not carry it */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            error: "Unauthorized";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document (OpenAPI 3.1) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The OpenAPI document */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            openapi: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Interactive reference of this document */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description An HTML page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "material.processed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A material finished processing and is `active`
         * @description Answer 2xx within `WEBHOOK_TIMEOUT_MS`; anything else is retried with exponential backoff (`WEBHOOK_ATTEMPTS`, `WEBHOOK_BACKOFF_MS`). Deliveries may arrive more than once and out of order: use `id` to deduplicate.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the webhook secret>`; docs/api.md in the repository shows how to verify it */
                    "Quire-Signature": string;
                    "Quire-Event": "material.processed" | "material.failed";
                    /** @description Id of this delivery; retries of it carry the same id */
                    "Quire-Delivery": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["WebhookEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "material.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Processing failed; the material is `error`
         * @description Answer 2xx within `WEBHOOK_TIMEOUT_MS`; anything else is retried with exponential backoff (`WEBHOOK_ATTEMPTS`, `WEBHOOK_BACKOFF_MS`). Deliveries may arrive more than once and out of order: use `id` to deduplicate.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the webhook secret>`; docs/api.md in the repository shows how to verify it */
                    "Quire-Signature": string;
                    "Quire-Event": "material.processed" | "material.failed";
                    /** @description Id of this delivery; retries of it carry the same id */
                    "Quire-Delivery": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["WebhookEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        WebhookEvent: {
            id: string;
            /** @enum {string} */
            type: "material.processed" | "material.failed";
            /** Format: date-time */
            createdAt: string;
            data: {
                material: {
                    _id: string;
                    name: string;
                    organizationId: string;
                    folderId: string | null;
                    /** @enum {string} */
                    contentType: "text" | "pdf" | "video" | "audio" | "image" | "epub";
                    /** @enum {string} */
                    status: "active" | "error";
                    /**
                     * Format: date-time
                     * @example 2025-01-07T23:59:59.999Z
                     */
                    createdAt: string;
                    /**
                     * Format: date-time
                     * @example 2025-01-07T23:59:59.999Z
                     */
                    updatedAt: string;
                    processingMs?: number;
                    wordCount?: number;
                    /** @description Why processing failed */
                    error?: {
                        /** @enum {string} */
                        code: "UNSUPPORTED" | "CORRUPT" | "ENCRYPTED" | "TOO_LARGE" | "TIMEOUT" | "FETCH_FAILED" | "INTERNAL" | "CANCELLED";
                        message: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
        Material: {
            /** @example 01936f0e-7a53-7cc2-9d4e-2b7f6f3c9a10 */
            _id: string;
            name: string;
            organizationId: string;
            folderId: string | null;
            /** @enum {string} */
            contentType: "text" | "pdf" | "video" | "audio" | "image" | "epub";
            content: {
                /** @description A text material */
                text?: string;
                /** @description A URL material; its file fields appear once it is fetched */
                url?: string;
                s3Key?: string;
                filename?: string;
                fileSize?: number;
                mimeType?: string;
                /** @description The ETag of the original that upload/complete accepted (S3 storage) */
                etag?: string;
                /** @description Time-limited GET URL of the original, minted per response */
                s3Url?: string;
            };
            /** @enum {string} */
            status: "pending_upload" | "processing" | "active" | "error" | "deleted";
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            updatedAt: string;
            /** @description Filled by processing; the fields besides the common ones depend on the content type */
            metadata: {
                format?: string;
                title?: string;
                pageCount?: number;
                /** @description A presentation: its slides */
                slideCount?: number;
                /** @description A workbook: its sheets */
                sheetCount?: number;
                /** @description The slides the deck hides (their text is kept, marked `hidden`) */
                hiddenSlides?: number[];
                /** @description Sheets cut at `maxCellsPerSheet` cells or at `maxWorkbookChars` characters of the workbook: the rest of their cells is not in the text */
                cutSheets?: ({
                    sheet: number;
                    name: string;
                    cellsKept: number;
                    /**
                     * @description The limit it was cut at: its own cells, or the characters of the whole workbook (the sheets after it keep no cells)
                     * @enum {string}
                     */
                    cutAt?: "maxCellsPerSheet" | "maxWorkbookChars";
                } & {
                    [key: string]: unknown;
                })[];
                maxCellsPerSheet?: number;
                /** @description Present when the workbook was cut at this many characters of cell text, all sheets together */
                maxWorkbookChars?: number;
                /** @description An OpenDocument text or presentation: present when its tables' repeated cells (written once in the file with a repeat count) were copied out only up to this many characters, all tables together; past it each is kept once */
                maxRepeatedChars?: number;
                /** @description A document's comments, which are left out of its text */
                comments?: ({
                    author?: string;
                    text: string;
                } & {
                    [key: string]: unknown;
                })[];
                /** @description A legacy binary format: what converted it (`libreoffice`) */
                convertedBy?: string;
                /**
                 * @description A web page: `article` kept its main content only; `whole-page` found no article and kept all of it
                 * @enum {string}
                 */
                extraction?: "article" | "whole-page";
                /** @description Why the whole page was kept */
                fallbackReason?: string;
                lang?: string;
                canonicalUrl?: string;
                siteName?: string;
                author?: string;
                /** @description ISO 8601, when the page gave a readable date */
                publishedAt?: string;
                excerpt?: string;
                pages?: ({
                    page: number;
                    offset: number;
                    length: number;
                    wordCount: number;
                } & {
                    [key: string]: unknown;
                })[];
                subject?: string;
                creator?: string;
                producer?: string;
                pdfVersion?: string;
                /** @description Encrypted with an empty user password, so readable */
                encrypted?: boolean;
                /** @description The chapters hold no text (pictures only, or unreadable) */
                textless?: boolean;
                ocr?: {
                    engine: string;
                    language: string;
                    confidence?: number;
                } & {
                    [key: string]: unknown;
                };
                /** @description What read the text: `pdfium`, or `pdf.js` for a file PDFium refused */
                textEngine?: string;
                /** @description Image extraction stopped before the end (its share of the time budget ran out): the text is whole, `images` holds those made so far */
                imagesCutShort?: {
                    reason: string;
                    message: string;
                    imagesKept: number;
                } & {
                    [key: string]: unknown;
                };
                language?: string;
                publisher?: string;
                epubVersion?: string;
                chapterCount?: number;
                chapters?: ({
                    chapter: number;
                    title?: string;
                    href: string;
                    offset: number;
                    length: number;
                    wordCount: number;
                } & {
                    [key: string]: unknown;
                })[];
                toc?: ({
                    title?: string;
                    href?: string;
                    chapter?: number;
                } & {
                    [key: string]: unknown;
                })[];
                width?: number;
                height?: number;
                orientation?: number;
                frames?: number;
                durationSeconds?: number;
                bitrate?: number;
                container?: string;
                codecs?: {
                    audio?: string;
                    video?: string;
                } & {
                    [key: string]: unknown;
                };
                hasAudio?: boolean;
                hasVideo?: boolean;
                sampleRate?: number;
                channels?: number;
                audioBitrate?: number;
                frameRate?: number;
                videoBitrate?: number;
                transcription?: {
                    engine: string;
                    /** @description Chunks a long recording was transcribed in */
                    chunkCount?: number;
                    /** @description False when a stretch of a chunked recording has no words */
                    complete?: boolean;
                    /** @description The stretches of the recording left without words, and why */
                    missing?: {
                        startMs: number;
                        endMs: number;
                        reason: string;
                    }[];
                } & {
                    [key: string]: unknown;
                };
                /**
                 * @description The `content.type` a URL was created with
                 * @enum {string}
                 */
                requestedType?: "text" | "pdf" | "video" | "audio" | "url";
                /** @description While processing */
                progress?: number;
                /** @description The OCR languages asked for at upload (else every configured one is used) */
                ocrLanguages?: string[];
                error?: components["schemas"]["MaterialError"];
                processingMs?: number;
                /** @description The sandboxed extraction's peak, when one ran */
                peakMemoryMb?: number;
                extractedText?: string;
                /** @description Storage key of the text when it is too large to inline */
                textKey?: string;
                /** @description Where the whole text is when it is too large to inline: `GET /api/v1/materials/{id}/text` */
                textUrl?: string;
                /** @description Storage key of the text segments with their positions (NDJSON), served by `/text` */
                segmentsKey?: string;
                wordCount?: number;
                textLength?: number;
                images?: components["schemas"]["MaterialImage"][];
                preview?: components["schemas"]["MaterialImage"];
                thumbnail?: components["schemas"]["MaterialImage"];
                /** @description Which extractor made the result */
                extractor?: {
                    name: string;
                    version: number;
                };
            } & {
                [key: string]: unknown;
            };
            usage: {
                /** @description Bytes held for the original */
                storageBytes: number;
                /** @description Bytes held for what processing made */
                derivedBytes: number;
            };
            references: {
                title: string;
                /** Format: uri */
                url: string;
            }[];
        };
        /** @description Why processing failed (`metadata.error` of a material in `error`) */
        MaterialError: {
            /** @enum {string} */
            code: "UNSUPPORTED" | "CORRUPT" | "ENCRYPTED" | "TOO_LARGE" | "TIMEOUT" | "FETCH_FAILED" | "INTERNAL" | "CANCELLED";
            message: string;
            /** @description The `content.type` the client claimed for a URL */
            claimedType?: string;
            /** @description The type the fetched bytes turned out to be */
            detectedType?: string;
        } & {
            [key: string]: unknown;
        };
        MaterialImage: {
            id: string;
            s3Key: string;
            page?: number;
            chapter?: number;
            timestampMs?: number;
            width?: number;
            height?: number;
            format?: string;
            /** @description `extracted` or `keyframe` */
            kind?: string;
            /** @description Time-limited GET URL, minted per response */
            s3Url?: string;
        } & {
            [key: string]: unknown;
        };
        ErrorBody: {
            /** @example 400 */
            statusCode: number;
            /**
             * @description The HTTP reason phrase
             * @example Bad Request
             */
            error: string;
            /** @description What went wrong, naming the field when one is at fault */
            message: string;
            /** @description One entry per invalid field */
            details?: {
                field?: string;
                message: string;
            }[];
        };
        Unauthorized: {
            /** @enum {string} */
            error: "Unauthorized";
        };
        /** @description The error body plus the material, now `error` (no material for an Idempotency-Key mismatch) */
        ProcessingFailed: {
            /** @example 400 */
            statusCode: number;
            /**
             * @description The HTTP reason phrase
             * @example Bad Request
             */
            error: string;
            /** @description What went wrong, naming the field when one is at fault */
            message: string;
            /** @description One entry per invalid field */
            details?: {
                field?: string;
                message: string;
            }[];
            material?: components["schemas"]["Material"];
        };
        BatchUploadHandle: {
            uploadUrl: string;
            s3Key: string;
            materialId: string;
            name: string;
        };
        UploadHandle: {
            uploadUrl: string;
            s3Key: string;
            materialId: string;
        };
        MaterialPage: {
            materials: components["schemas"]["MaterialListItem"][];
            totalCount: number;
            page: number;
            totalPages: number;
        };
        /** @description A material as lists show it: everything `GET /{id}` answers except its text (`content.text`, `metadata.extractedText`), per-page rows (`metadata.pages`), chapters (`metadata.chapters`, `metadata.toc`) and images (`metadata.images` and the full-size `metadata.preview`; the `thumbnail` stays), each brought back by naming it in `include` */
        MaterialListItem: {
            /** @example 01936f0e-7a53-7cc2-9d4e-2b7f6f3c9a10 */
            _id: string;
            name: string;
            organizationId: string;
            folderId: string | null;
            /** @enum {string} */
            contentType: "text" | "pdf" | "video" | "audio" | "image" | "epub";
            content: {
                /** @description Only with `include=text` */
                text?: string;
                /** @description A URL material; its file fields appear once it is fetched */
                url?: string;
                s3Key?: string;
                filename?: string;
                fileSize?: number;
                mimeType?: string;
                /** @description The ETag of the original that upload/complete accepted (S3 storage) */
                etag?: string;
                /** @description Time-limited GET URL of the original, minted per response */
                s3Url?: string;
            };
            /** @enum {string} */
            status: "pending_upload" | "processing" | "active" | "error" | "deleted";
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            updatedAt: string;
            metadata: {
                format?: string;
                title?: string;
                pageCount?: number;
                /** @description A presentation: its slides */
                slideCount?: number;
                /** @description A workbook: its sheets */
                sheetCount?: number;
                /** @description The slides the deck hides (their text is kept, marked `hidden`) */
                hiddenSlides?: number[];
                /** @description Sheets cut at `maxCellsPerSheet` cells or at `maxWorkbookChars` characters of the workbook: the rest of their cells is not in the text */
                cutSheets?: ({
                    sheet: number;
                    name: string;
                    cellsKept: number;
                    /**
                     * @description The limit it was cut at: its own cells, or the characters of the whole workbook (the sheets after it keep no cells)
                     * @enum {string}
                     */
                    cutAt?: "maxCellsPerSheet" | "maxWorkbookChars";
                } & {
                    [key: string]: unknown;
                })[];
                maxCellsPerSheet?: number;
                /** @description Present when the workbook was cut at this many characters of cell text, all sheets together */
                maxWorkbookChars?: number;
                /** @description An OpenDocument text or presentation: present when its tables' repeated cells (written once in the file with a repeat count) were copied out only up to this many characters, all tables together; past it each is kept once */
                maxRepeatedChars?: number;
                /** @description A document's comments, which are left out of its text */
                comments?: ({
                    author?: string;
                    text: string;
                } & {
                    [key: string]: unknown;
                })[];
                /** @description A legacy binary format: what converted it (`libreoffice`) */
                convertedBy?: string;
                /**
                 * @description A web page: `article` kept its main content only; `whole-page` found no article and kept all of it
                 * @enum {string}
                 */
                extraction?: "article" | "whole-page";
                /** @description Why the whole page was kept */
                fallbackReason?: string;
                lang?: string;
                canonicalUrl?: string;
                siteName?: string;
                author?: string;
                /** @description ISO 8601, when the page gave a readable date */
                publishedAt?: string;
                excerpt?: string;
                /** @description Only with `include=pages` */
                pages?: ({
                    page: number;
                    offset: number;
                    length: number;
                    wordCount: number;
                } & {
                    [key: string]: unknown;
                })[];
                subject?: string;
                creator?: string;
                producer?: string;
                pdfVersion?: string;
                /** @description Encrypted with an empty user password, so readable */
                encrypted?: boolean;
                /** @description The chapters hold no text (pictures only, or unreadable) */
                textless?: boolean;
                ocr?: {
                    engine: string;
                    language: string;
                    confidence?: number;
                } & {
                    [key: string]: unknown;
                };
                /** @description What read the text: `pdfium`, or `pdf.js` for a file PDFium refused */
                textEngine?: string;
                /** @description Image extraction stopped before the end (its share of the time budget ran out): the text is whole, `images` holds those made so far */
                imagesCutShort?: {
                    reason: string;
                    message: string;
                    imagesKept: number;
                } & {
                    [key: string]: unknown;
                };
                language?: string;
                publisher?: string;
                epubVersion?: string;
                chapterCount?: number;
                /** @description Only with `include=chapters` */
                chapters?: ({
                    chapter: number;
                    title?: string;
                    href: string;
                    offset: number;
                    length: number;
                    wordCount: number;
                } & {
                    [key: string]: unknown;
                })[];
                /** @description Only with `include=chapters` */
                toc?: ({
                    title?: string;
                    href?: string;
                    chapter?: number;
                } & {
                    [key: string]: unknown;
                })[];
                width?: number;
                height?: number;
                orientation?: number;
                frames?: number;
                durationSeconds?: number;
                bitrate?: number;
                container?: string;
                codecs?: {
                    audio?: string;
                    video?: string;
                } & {
                    [key: string]: unknown;
                };
                hasAudio?: boolean;
                hasVideo?: boolean;
                sampleRate?: number;
                channels?: number;
                audioBitrate?: number;
                frameRate?: number;
                videoBitrate?: number;
                transcription?: {
                    engine: string;
                    /** @description Chunks a long recording was transcribed in */
                    chunkCount?: number;
                    /** @description False when a stretch of a chunked recording has no words */
                    complete?: boolean;
                    /** @description The stretches of the recording left without words, and why */
                    missing?: {
                        startMs: number;
                        endMs: number;
                        reason: string;
                    }[];
                } & {
                    [key: string]: unknown;
                };
                /**
                 * @description The `content.type` a URL was created with
                 * @enum {string}
                 */
                requestedType?: "text" | "pdf" | "video" | "audio" | "url";
                /** @description While processing */
                progress?: number;
                /** @description The OCR languages asked for at upload (else every configured one is used) */
                ocrLanguages?: string[];
                error?: components["schemas"]["MaterialError"];
                processingMs?: number;
                /** @description The sandboxed extraction's peak, when one ran */
                peakMemoryMb?: number;
                /** @description Only with `include=text` */
                extractedText?: string;
                /** @description Storage key of the text when it is too large to inline */
                textKey?: string;
                /** @description Where the whole text is when it is too large to inline: `GET /api/v1/materials/{id}/text` */
                textUrl?: string;
                /** @description Storage key of the text segments with their positions (NDJSON), served by `/text` */
                segmentsKey?: string;
                wordCount?: number;
                textLength?: number;
                /** @description Only with `include=images` */
                images?: components["schemas"]["MaterialImage"][];
                /** @description Only with `include=images` */
                preview?: {
                    id: string;
                    s3Key: string;
                    page?: number;
                    chapter?: number;
                    timestampMs?: number;
                    width?: number;
                    height?: number;
                    format?: string;
                    /** @description `extracted` or `keyframe` */
                    kind?: string;
                    /** @description Time-limited GET URL, minted per response */
                    s3Url?: string;
                } & {
                    [key: string]: unknown;
                };
                thumbnail?: components["schemas"]["MaterialImage"];
                /** @description Which extractor made the result */
                extractor?: {
                    name: string;
                    version: number;
                };
            } & {
                [key: string]: unknown;
            };
            usage: {
                /** @description Bytes held for the original */
                storageBytes: number;
                /** @description Bytes held for what processing made */
                derivedBytes: number;
            };
            references: {
                title: string;
                /** Format: uri */
                url: string;
            }[];
        };
        /** @description Data of an `event: status` message: sent first, and whenever the status changes */
        MaterialStatusEvent: {
            _id: string;
            /** @enum {string} */
            status: "pending_upload" | "processing" | "active" | "error" | "deleted";
            /** @description While `processing` */
            progress?: number;
            /** @description When `error` */
            error?: {
                /** @enum {string} */
                code: "UNSUPPORTED" | "CORRUPT" | "ENCRYPTED" | "TOO_LARGE" | "TIMEOUT" | "FETCH_FAILED" | "INTERNAL" | "CANCELLED";
                message: string;
                /** @description The `content.type` the client claimed for a URL */
                claimedType?: string;
                /** @description The type the fetched bytes turned out to be */
                detectedType?: string;
            } & {
                [key: string]: unknown;
            };
        };
        /** @description Data of an `event: progress` message: processing advanced */
        MaterialProgressEvent: {
            _id: string;
            progress: number;
        };
        SearchResults: {
            query: string;
            results: {
                /** @description Relevance, 0..1, best first: raw / (raw + h), where raw is the BM25 score and h the sum of the query words' idf */
                score: number;
                text: string;
                chunkIndex: number;
                /** @description The headings the passage stands under, outermost first */
                heading?: string[];
                page?: number;
                slide?: number;
                chapter?: number;
                startMs?: number;
                endMs?: number;
                /** @description Where the passage stands on its PDF page: `[x0, y0, x1, y1]` in points from the top left */
                box?: number[];
                material: {
                    id: string;
                    name: string;
                    /** @enum {string} */
                    contentType: "text" | "pdf" | "video" | "audio" | "image" | "epub";
                };
                /** @description The query words the passage holds (stemmed alike, or the word a misspelling was taken for) */
                matchedTerms: string[];
                /** @description Where the matched words are in `text`: JavaScript string offsets, `end` exclusive */
                highlights: {
                    start: number;
                    end: number;
                }[];
            }[];
            totalResults: number;
            filtered: boolean;
            scope: {
                materialIds: string[] | null;
                folderIds: string[] | null;
            };
        };
        TextSegmentPage: {
            segments: components["schemas"]["TextSegment"][];
            page: number;
            limit: number;
            /** @description Whether a next page has segments */
            hasMore: boolean;
            /** @description With `hasMore`: the index of the next segment, to pass as `start`. A page holds at most about 2 MB of segments and may stop before `limit`; then `page + 1` would skip segments, `start=next` does not */
            next?: number;
        };
        TextSegment: {
            text: string;
            /** @description Where `text` starts in the whole text (UTF-16 code units) */
            offset: number;
            page?: number;
            chapter?: number;
            startMs?: number;
            endMs?: number;
            /**
             * @description `text-layer`: the file’s own text; `ocr`: read from an image of the page; `transcript`: speech-to-text
             * @enum {string}
             */
            source: "text-layer" | "ocr" | "transcript";
            /** @description OCR confidence of the page or image, 0..100 */
            confidence?: number;
            /**
             * @description What the segment is in the document: `heading`, `list-item`, `table`, `figure`, `code`... Absent: a paragraph (and every segment of a material processed before structure was kept)
             * @enum {string}
             */
            kind?: "title" | "heading" | "paragraph" | "list-item" | "table" | "figure" | "caption" | "code" | "formula" | "page-header" | "page-footer" | "footnote" | "notes";
            /** @description A heading's level (1-6); a list item's nesting depth (1 for the outermost list) */
            level?: number;
            /** @description The texts of the headings the segment stands under, outermost first */
            path?: string[];
            /** @description A list item of a numbered list */
            ordered?: boolean;
            /** @description A numbered list item's own number where the source gives one as a plain decimal (a PDF's "3.", `<ol start="3">`, a Word list resumed after another): absent, the item counts on from the one before */
            number?: number;
            /** @description A table's rows of cells (on its first segment, when a table is cut into several) */
            rows?: components["schemas"]["TableCell"][][];
            /** @description A code block's language, where the source names one */
            language?: string;
            /** @description A figure's stored image: the `id` of its entry in `metadata.images` */
            image?: string;
            slide?: number;
            sheet?: number;
            /** @description Where the element stands on its PDF page: `[x0, y0, x1, y1]` in points from the top left */
            box?: [
                number,
                number,
                number,
                number
            ];
            /** @description An element the source hides (a hidden slide) */
            hidden?: boolean;
        };
        TableCell: {
            text: string;
            /** @description A header cell (`th`, a header row) */
            header?: boolean;
            rowSpan?: number;
            colSpan?: number;
        };
        JobStatus: {
            /** @description The processing job's id: the material's id */
            jobId: string;
            /**
             * @description `pending` waiting for its upload or its turn, `running`, `completed` (the material is `active`), `failed` (`error`), `cancelled` (`error` with code `CANCELLED`)
             * @enum {string}
             */
            status: "pending" | "running" | "completed" | "failed" | "cancelled";
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            startedAt?: string;
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            completedAt?: string;
            /** @description Why it failed */
            error?: string;
            /** @description While `pending` with its job queued: where it stands (not in the public API) */
            queue?: {
                /** @description Jobs that will be taken before this one (0: next) */
                jobsAhead: number;
                /** @description Jobs waiting for a processing slot, this one included */
                queued: number;
                /** @description Those jobs at the rate the fleet finished jobs over the last 10 minutes; null when it finished too few to tell. Other organizations' jobs take their turns too, so it is an estimate */
                estimatedWaitMs: number | null;
            };
            progress: {
                percentage: number;
                /** @description A long recording's chunks transcribed so far */
                currentBatch?: number;
                /** @description A long recording's chunks */
                totalBatches?: number;
                processedImages?: number;
                totalImages?: number;
            };
            /** @description Once completed */
            resultSummary?: {
                textExtracted: boolean;
                textLength: number;
                imagesProcessed: number;
                processingTimeMs: number;
            };
        };
        MaterialDebugInfo: {
            materialId: string;
            name: string;
            status: string;
            contentType: string;
            /** @description The content as stored (no signed URL) */
            content: {
                [key: string]: unknown;
            };
            /** @description The metadata as stored, nothing left out */
            metadata: {
                format?: string;
                title?: string;
                pageCount?: number;
                /** @description A presentation: its slides */
                slideCount?: number;
                /** @description A workbook: its sheets */
                sheetCount?: number;
                /** @description The slides the deck hides (their text is kept, marked `hidden`) */
                hiddenSlides?: number[];
                /** @description Sheets cut at `maxCellsPerSheet` cells or at `maxWorkbookChars` characters of the workbook: the rest of their cells is not in the text */
                cutSheets?: ({
                    sheet: number;
                    name: string;
                    cellsKept: number;
                    /**
                     * @description The limit it was cut at: its own cells, or the characters of the whole workbook (the sheets after it keep no cells)
                     * @enum {string}
                     */
                    cutAt?: "maxCellsPerSheet" | "maxWorkbookChars";
                } & {
                    [key: string]: unknown;
                })[];
                maxCellsPerSheet?: number;
                /** @description Present when the workbook was cut at this many characters of cell text, all sheets together */
                maxWorkbookChars?: number;
                /** @description An OpenDocument text or presentation: present when its tables' repeated cells (written once in the file with a repeat count) were copied out only up to this many characters, all tables together; past it each is kept once */
                maxRepeatedChars?: number;
                /** @description A document's comments, which are left out of its text */
                comments?: ({
                    author?: string;
                    text: string;
                } & {
                    [key: string]: unknown;
                })[];
                /** @description A legacy binary format: what converted it (`libreoffice`) */
                convertedBy?: string;
                /**
                 * @description A web page: `article` kept its main content only; `whole-page` found no article and kept all of it
                 * @enum {string}
                 */
                extraction?: "article" | "whole-page";
                /** @description Why the whole page was kept */
                fallbackReason?: string;
                lang?: string;
                canonicalUrl?: string;
                siteName?: string;
                author?: string;
                /** @description ISO 8601, when the page gave a readable date */
                publishedAt?: string;
                excerpt?: string;
                pages?: ({
                    page: number;
                    offset: number;
                    length: number;
                    wordCount: number;
                } & {
                    [key: string]: unknown;
                })[];
                subject?: string;
                creator?: string;
                producer?: string;
                pdfVersion?: string;
                /** @description Encrypted with an empty user password, so readable */
                encrypted?: boolean;
                /** @description The chapters hold no text (pictures only, or unreadable) */
                textless?: boolean;
                ocr?: {
                    engine: string;
                    language: string;
                    confidence?: number;
                } & {
                    [key: string]: unknown;
                };
                /** @description What read the text: `pdfium`, or `pdf.js` for a file PDFium refused */
                textEngine?: string;
                /** @description Image extraction stopped before the end (its share of the time budget ran out): the text is whole, `images` holds those made so far */
                imagesCutShort?: {
                    reason: string;
                    message: string;
                    imagesKept: number;
                } & {
                    [key: string]: unknown;
                };
                language?: string;
                publisher?: string;
                epubVersion?: string;
                chapterCount?: number;
                chapters?: ({
                    chapter: number;
                    title?: string;
                    href: string;
                    offset: number;
                    length: number;
                    wordCount: number;
                } & {
                    [key: string]: unknown;
                })[];
                toc?: ({
                    title?: string;
                    href?: string;
                    chapter?: number;
                } & {
                    [key: string]: unknown;
                })[];
                width?: number;
                height?: number;
                orientation?: number;
                frames?: number;
                durationSeconds?: number;
                bitrate?: number;
                container?: string;
                codecs?: {
                    audio?: string;
                    video?: string;
                } & {
                    [key: string]: unknown;
                };
                hasAudio?: boolean;
                hasVideo?: boolean;
                sampleRate?: number;
                channels?: number;
                audioBitrate?: number;
                frameRate?: number;
                videoBitrate?: number;
                transcription?: {
                    engine: string;
                    /** @description Chunks a long recording was transcribed in */
                    chunkCount?: number;
                    /** @description False when a stretch of a chunked recording has no words */
                    complete?: boolean;
                    /** @description The stretches of the recording left without words, and why */
                    missing?: {
                        startMs: number;
                        endMs: number;
                        reason: string;
                    }[];
                } & {
                    [key: string]: unknown;
                };
                /**
                 * @description The `content.type` a URL was created with
                 * @enum {string}
                 */
                requestedType?: "text" | "pdf" | "video" | "audio" | "url";
                /** @description While processing */
                progress?: number;
                /** @description The OCR languages asked for at upload (else every configured one is used) */
                ocrLanguages?: string[];
                error?: components["schemas"]["MaterialError"];
                processingMs?: number;
                /** @description The sandboxed extraction's peak, when one ran */
                peakMemoryMb?: number;
                extractedText?: string;
                /** @description Storage key of the text when it is too large to inline */
                textKey?: string;
                /** @description Where the whole text is when it is too large to inline: `GET /api/v1/materials/{id}/text` */
                textUrl?: string;
                /** @description Storage key of the text segments with their positions (NDJSON), served by `/text` */
                segmentsKey?: string;
                wordCount?: number;
                textLength?: number;
                /** @description Only when images were asked for */
                images?: ({
                    id: string;
                    s3Key: string;
                    page?: number;
                    chapter?: number;
                    timestampMs?: number;
                    width?: number;
                    height?: number;
                    format?: string;
                    /** @description `extracted` or `keyframe` */
                    kind?: string;
                } & {
                    [key: string]: unknown;
                })[];
                preview?: {
                    id: string;
                    s3Key: string;
                    page?: number;
                    chapter?: number;
                    timestampMs?: number;
                    width?: number;
                    height?: number;
                    format?: string;
                    /** @description `extracted` or `keyframe` */
                    kind?: string;
                } & {
                    [key: string]: unknown;
                };
                thumbnail?: {
                    id: string;
                    s3Key: string;
                    page?: number;
                    chapter?: number;
                    timestampMs?: number;
                    width?: number;
                    height?: number;
                    format?: string;
                    /** @description `extracted` or `keyframe` */
                    kind?: string;
                } & {
                    [key: string]: unknown;
                };
                /** @description Which extractor made the result */
                extractor?: {
                    name: string;
                    version: number;
                };
            } & {
                [key: string]: unknown;
            };
            images: {
                id: string;
                /** @description 0-based page of a PDF's image */
                pageIndex?: number;
                s3Key: string;
                s3Url: string;
                description: string;
            }[];
            /** @description Audio and video: `metadata.transcription` and the chunks of a long recording */
            transcriptStructure?: {
                chunked: boolean;
                chunks: {
                    index: number;
                    startMs: number;
                    endMs: number;
                    /** @enum {string} */
                    state: "transcribed" | "failed" | "pending";
                    segments: number;
                    error?: string;
                }[];
            } & {
                [key: string]: unknown;
            };
        };
        CancelledJob: {
            /** @enum {boolean} */
            success: true;
            jobId: string;
            /** @enum {string} */
            status: "cancelled";
            message: string;
            /** @description The material, now `error` with code `CANCELLED` */
            material: {
                /** @example 01936f0e-7a53-7cc2-9d4e-2b7f6f3c9a10 */
                _id: string;
                name: string;
                organizationId: string;
                folderId: string | null;
                /** @enum {string} */
                contentType: "text" | "pdf" | "video" | "audio" | "image" | "epub";
                content: {
                    /** @description A text material */
                    text?: string;
                    /** @description A URL material; its file fields appear once it is fetched */
                    url?: string;
                    s3Key?: string;
                    filename?: string;
                    fileSize?: number;
                    mimeType?: string;
                    /** @description The ETag of the original that upload/complete accepted (S3 storage) */
                    etag?: string;
                    /** @description Time-limited GET URL of the original, minted per response */
                    s3Url?: string;
                };
                /** @enum {string} */
                status: "pending_upload" | "processing" | "active" | "error" | "deleted";
                /**
                 * Format: date-time
                 * @example 2025-01-07T23:59:59.999Z
                 */
                createdAt: string;
                /**
                 * Format: date-time
                 * @example 2025-01-07T23:59:59.999Z
                 */
                updatedAt: string;
                /** @description Filled by processing; the fields besides the common ones depend on the content type */
                metadata: {
                    format?: string;
                    title?: string;
                    pageCount?: number;
                    /** @description A presentation: its slides */
                    slideCount?: number;
                    /** @description A workbook: its sheets */
                    sheetCount?: number;
                    /** @description The slides the deck hides (their text is kept, marked `hidden`) */
                    hiddenSlides?: number[];
                    /** @description Sheets cut at `maxCellsPerSheet` cells or at `maxWorkbookChars` characters of the workbook: the rest of their cells is not in the text */
                    cutSheets?: ({
                        sheet: number;
                        name: string;
                        cellsKept: number;
                        /**
                         * @description The limit it was cut at: its own cells, or the characters of the whole workbook (the sheets after it keep no cells)
                         * @enum {string}
                         */
                        cutAt?: "maxCellsPerSheet" | "maxWorkbookChars";
                    } & {
                        [key: string]: unknown;
                    })[];
                    maxCellsPerSheet?: number;
                    /** @description Present when the workbook was cut at this many characters of cell text, all sheets together */
                    maxWorkbookChars?: number;
                    /** @description An OpenDocument text or presentation: present when its tables' repeated cells (written once in the file with a repeat count) were copied out only up to this many characters, all tables together; past it each is kept once */
                    maxRepeatedChars?: number;
                    /** @description A document's comments, which are left out of its text */
                    comments?: ({
                        author?: string;
                        text: string;
                    } & {
                        [key: string]: unknown;
                    })[];
                    /** @description A legacy binary format: what converted it (`libreoffice`) */
                    convertedBy?: string;
                    /**
                     * @description A web page: `article` kept its main content only; `whole-page` found no article and kept all of it
                     * @enum {string}
                     */
                    extraction?: "article" | "whole-page";
                    /** @description Why the whole page was kept */
                    fallbackReason?: string;
                    lang?: string;
                    canonicalUrl?: string;
                    siteName?: string;
                    author?: string;
                    /** @description ISO 8601, when the page gave a readable date */
                    publishedAt?: string;
                    excerpt?: string;
                    pages?: ({
                        page: number;
                        offset: number;
                        length: number;
                        wordCount: number;
                    } & {
                        [key: string]: unknown;
                    })[];
                    subject?: string;
                    creator?: string;
                    producer?: string;
                    pdfVersion?: string;
                    /** @description Encrypted with an empty user password, so readable */
                    encrypted?: boolean;
                    /** @description The chapters hold no text (pictures only, or unreadable) */
                    textless?: boolean;
                    ocr?: {
                        engine: string;
                        language: string;
                        confidence?: number;
                    } & {
                        [key: string]: unknown;
                    };
                    /** @description What read the text: `pdfium`, or `pdf.js` for a file PDFium refused */
                    textEngine?: string;
                    /** @description Image extraction stopped before the end (its share of the time budget ran out): the text is whole, `images` holds those made so far */
                    imagesCutShort?: {
                        reason: string;
                        message: string;
                        imagesKept: number;
                    } & {
                        [key: string]: unknown;
                    };
                    language?: string;
                    publisher?: string;
                    epubVersion?: string;
                    chapterCount?: number;
                    chapters?: ({
                        chapter: number;
                        title?: string;
                        href: string;
                        offset: number;
                        length: number;
                        wordCount: number;
                    } & {
                        [key: string]: unknown;
                    })[];
                    toc?: ({
                        title?: string;
                        href?: string;
                        chapter?: number;
                    } & {
                        [key: string]: unknown;
                    })[];
                    width?: number;
                    height?: number;
                    orientation?: number;
                    frames?: number;
                    durationSeconds?: number;
                    bitrate?: number;
                    container?: string;
                    codecs?: {
                        audio?: string;
                        video?: string;
                    } & {
                        [key: string]: unknown;
                    };
                    hasAudio?: boolean;
                    hasVideo?: boolean;
                    sampleRate?: number;
                    channels?: number;
                    audioBitrate?: number;
                    frameRate?: number;
                    videoBitrate?: number;
                    transcription?: {
                        engine: string;
                        /** @description Chunks a long recording was transcribed in */
                        chunkCount?: number;
                        /** @description False when a stretch of a chunked recording has no words */
                        complete?: boolean;
                        /** @description The stretches of the recording left without words, and why */
                        missing?: {
                            startMs: number;
                            endMs: number;
                            reason: string;
                        }[];
                    } & {
                        [key: string]: unknown;
                    };
                    /**
                     * @description The `content.type` a URL was created with
                     * @enum {string}
                     */
                    requestedType?: "text" | "pdf" | "video" | "audio" | "url";
                    /** @description While processing */
                    progress?: number;
                    /** @description The OCR languages asked for at upload (else every configured one is used) */
                    ocrLanguages?: string[];
                    error?: components["schemas"]["MaterialError"];
                    processingMs?: number;
                    /** @description The sandboxed extraction's peak, when one ran */
                    peakMemoryMb?: number;
                    extractedText?: string;
                    /** @description Storage key of the text when it is too large to inline */
                    textKey?: string;
                    /** @description Where the whole text is when it is too large to inline: `GET /api/v1/materials/{id}/text` */
                    textUrl?: string;
                    /** @description Storage key of the text segments with their positions (NDJSON), served by `/text` */
                    segmentsKey?: string;
                    wordCount?: number;
                    textLength?: number;
                    images?: components["schemas"]["MaterialImage"][];
                    preview?: components["schemas"]["MaterialImage"];
                    thumbnail?: components["schemas"]["MaterialImage"];
                    /** @description Which extractor made the result */
                    extractor?: {
                        name: string;
                        version: number;
                    };
                } & {
                    [key: string]: unknown;
                };
                usage: {
                    /** @description Bytes held for the original */
                    storageBytes: number;
                    /** @description Bytes held for what processing made */
                    derivedBytes: number;
                };
                references: {
                    title: string;
                    /** Format: uri */
                    url: string;
                }[];
            };
        };
        Folder: {
            _id: string;
            name: string;
            organizationId: string;
            parentFolderId: string | null;
            description: string | null;
            /** @enum {string} */
            status: "active";
            metadata: {
                color: string | null;
                icon: string | null;
                /** @description Live materials directly in the folder */
                materialCount: number;
                /** @description Bytes of those materials' originals */
                totalSize: number;
                /**
                 * Format: date-time
                 * @description When a material last came, went or changed size; the creation time until one does
                 * @example 2025-01-07T23:59:59.999Z
                 */
                lastActivity: string;
            };
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            updatedAt: string;
        };
        FolderTreeNode: {
            _id: string;
            name: string;
            organizationId: string;
            parentFolderId: string | null;
            description: string | null;
            /** @enum {string} */
            status: "active";
            metadata: {
                color: string | null;
                icon: string | null;
                /** @description Live materials directly in the folder */
                materialCount: number;
                /** @description Bytes of those materials' originals */
                totalSize: number;
                /**
                 * Format: date-time
                 * @description When a material last came, went or changed size; the creation time until one does
                 * @example 2025-01-07T23:59:59.999Z
                 */
                lastActivity: string;
            };
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            updatedAt: string;
            materialCount: number;
            subfolders: components["schemas"]["FolderTreeNode"][];
        };
        FolderDetail: {
            _id: string;
            name: string;
            organizationId: string;
            parentFolderId: string | null;
            description: string | null;
            /** @enum {string} */
            status: "active";
            metadata: {
                color: string | null;
                icon: string | null;
                /** @description Live materials directly in the folder */
                materialCount: number;
                /** @description Bytes of those materials' originals */
                totalSize: number;
                /**
                 * Format: date-time
                 * @description When a material last came, went or changed size; the creation time until one does
                 * @example 2025-01-07T23:59:59.999Z
                 */
                lastActivity: string;
            };
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            updatedAt: string;
            /** @description The direct children */
            subfolders: components["schemas"]["Folder"][];
            /** @description Live materials directly in the folder */
            materialCount: number;
            /** @description Bytes of those materials' originals */
            totalSize: number;
            /** @description One page of the materials directly in the folder (`page`, `limit`) */
            materials: components["schemas"]["MaterialListItem"][];
        };
        UsageEvent: {
            eventId: string;
            /** @enum {string} */
            type: "live_session_created" | "live_chat_message_sent" | "test_created" | "test_question_created" | "test_question_answered" | "test_chat_question" | "engagement" | "tutor_me_message_sent" | "material_chat_message_sent" | "main_chat_message_sent" | "flashcard_set_created" | "flashcard_created" | "flashcard_chat_question" | "explainer_video_created" | "material_created" | "material_uploaded" | "material_processed" | "material_deleted" | "component_created" | "component_accessed" | "component_deleted" | "component_usage" | "chat_message_sent" | "chat_session_started" | "chat_session_ended" | "chat_feedback" | "test_started" | "test_completed" | "test_retaken" | "audio_recap_create" | "assignment_grader_create" | "api_call" | "cache_hit" | "sso_login" | "sso_logout" | "student_performance";
            /** @description Null for quire's own events (materials', API calls) */
            userId: string | null;
            userName: string | null;
            /** @description Null for quire's own events that belong to no group */
            groupId: string | null;
            /** @description What the event is about: a material's id for `material_*` */
            resourceId: string | null;
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            occurredAt: string;
            value: number | null;
            properties: {
                [key: string]: unknown;
            } | null;
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            receivedAt: string;
        };
        UsageSummary: {
            /** @enum {string} */
            period: "hourly" | "daily" | "monthly";
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            startDate: string;
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            endDate: string;
            /** @enum {string|null} */
            groupBy: "user" | "group" | "model" | "endpoint" | null;
            totals: {
                /** @description Events of every type */
                events: number;
                /** @description Events per type */
                byType: {
                    live_session_created: number;
                    live_chat_message_sent: number;
                    test_created: number;
                    test_question_created: number;
                    test_question_answered: number;
                    test_chat_question: number;
                    engagement: number;
                    tutor_me_message_sent: number;
                    material_chat_message_sent: number;
                    main_chat_message_sent: number;
                    flashcard_set_created: number;
                    flashcard_created: number;
                    flashcard_chat_question: number;
                    explainer_video_created: number;
                };
                /** @description Engaged milliseconds of `engagement` events */
                engagedMs: number;
            };
            summary: {
                /**
                 * Format: date-time
                 * @example 2025-01-07T23:59:59.999Z
                 */
                periodStart: string;
                /**
                 * Format: date-time
                 * @example 2025-01-07T23:59:59.999Z
                 */
                periodEnd: string;
                userId?: string;
                userName?: string;
                groupId?: string;
                /** @description `none` with `groupBy=model`: quire runs no model */
                model?: string;
                /** @description With `groupBy=endpoint`: the route template, `GET /api/v1/materials/{id}` */
                endpoint?: string;
                /** @description With `groupBy=endpoint`: the calls' summed duration */
                durationMs?: number;
                /** @description Events of every type */
                events: number;
                /** @description Events per type */
                byType: {
                    live_session_created: number;
                    live_chat_message_sent: number;
                    test_created: number;
                    test_question_created: number;
                    test_question_answered: number;
                    test_chat_question: number;
                    engagement: number;
                    tutor_me_message_sent: number;
                    material_chat_message_sent: number;
                    main_chat_message_sent: number;
                    flashcard_set_created: number;
                    flashcard_created: number;
                    flashcard_chat_question: number;
                    explainer_video_created: number;
                };
                /** @description Engaged milliseconds of `engagement` events */
                engagedMs: number;
            }[];
        };
        UsageStats: {
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            startDate: string;
            /**
             * Format: date-time
             * @example 2025-01-07T23:59:59.999Z
             */
            endDate: string;
            /** @description The group counted, or null for the whole organization */
            groupId: string | null;
            userId: string | null;
            /** @description Events of every type in the range */
            totalEvents: number;
            /** @description Events per type, every type listed */
            eventsByType: {
                live_session_created: number;
                live_chat_message_sent: number;
                test_created: number;
                test_question_created: number;
                test_question_answered: number;
                test_chat_question: number;
                engagement: number;
                tutor_me_message_sent: number;
                material_chat_message_sent: number;
                main_chat_message_sent: number;
                flashcard_set_created: number;
                flashcard_created: number;
                flashcard_chat_question: number;
                explainer_video_created: number;
            };
            /** @description Engaged milliseconds of `engagement` events */
            engagedMs: number;
            /** @description Distinct users with at least one event in the range */
            activeUsers: number;
        };
        /** @description One report per 7-day window (group level), or per window and student (`students=true`) */
        GroupReport: {
            /** @enum {boolean} */
            success: true;
            reports: ({
                /**
                 * Format: date-time
                 * @example 2025-01-07T23:59:59.999Z
                 */
                startDate: string;
                /**
                 * Format: date-time
                 * @example 2025-01-07T23:59:59.999Z
                 */
                endDate: string;
                numStudentsUsed: number;
                data: {
                    title: string;
                    value: number;
                }[];
            } | {
                /**
                 * Format: date-time
                 * @example 2025-01-07T23:59:59.999Z
                 */
                startDate: string;
                /**
                 * Format: date-time
                 * @example 2025-01-07T23:59:59.999Z
                 */
                endDate: string;
                studentName: string;
                studentId: string;
                data: {
                    title: string;
                    value: number;
                }[];
            })[];
        };
        MissingParams: {
            /** @enum {string} */
            error: "Missing params";
            message: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
