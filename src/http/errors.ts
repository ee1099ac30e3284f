// The error model (spec 2.6): every error body is {error: CODE, message?, ...} with a machine code.
// Route code throws ApiError; the app's onError turns it into a response.
import { isStorageFull, isStorageUnavailable } from '../store/errors'

export type ErrorExtra = Record<string, unknown>

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message?: string,
    readonly extra: ErrorExtra = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? errorCode)
    this.name = 'ApiError'
  }

  get hasMessage(): boolean {
    return this.message !== this.errorCode
  }

  body(): Record<string, unknown> {
    return { error: this.errorCode, ...(this.hasMessage ? { message: this.message } : {}), ...this.extra }
  }

  toResponse(): Response {
    return jsonResponse(this.body(), this.status, this.headers)
  }
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } })
}

export const badRequest = (code: string, message: string, extra?: ErrorExtra) => new ApiError(400, code, message, extra)

/** Fail-closed answer when nothing can be signed (spec 3 rule 2): unsigned, status UNKNOWN. */
export const criticalFailure = (message = 'signing system offline; treat the market as CLOSED') =>
  new ApiError(500, 'CRITICAL_FAILURE', message, { status: 'UNKNOWN' })

/** The disk holding the database is full (store/errors.ts recognises it): nothing was saved. */
export const storageFull = (message = "the server's storage is full; nothing was saved. Retry later") =>
  new ApiError(503, 'STORAGE_FULL', message, {}, { 'retry-after': '60' })

/** The database cannot be reached right now (PostgreSQL): fail closed with a retryable answer. */
export const storageUnavailable = () => new ApiError(503, 'STORAGE_UNAVAILABLE', 'the database cannot be reached right now; retry shortly', {}, { 'retry-after': '5' })

/** The answer every surface gives a storage error (a full disk, an unreachable database), or null for any other error. */
export function storageRefusal(error: unknown): ApiError | null {
  if (isStorageFull(error)) return storageFull()
  if (isStorageUnavailable(error)) return storageUnavailable()
  return null
}
