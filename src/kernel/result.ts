/**
 * Expected failures are values with stable codes. Only `api/` turns them into HTTP;
 * the same code runs from a reactor or the CLI.
 */
export type DomainErrorCode =
  | 'invalid_request'
  | 'not_found'
  | 'conflict'
  | 'forbidden'
  | 'unprocessable'
  | 'authentication'
  | 'gone'
  | 'rate_limited';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string, param?: string): DomainError =>
  new DomainError('not_found', `No such ${what}.`, param);
export const conflict = (message: string): DomainError => new DomainError('conflict', message);
