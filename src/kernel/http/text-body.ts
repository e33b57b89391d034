/**
 * A request body other than JSON that some of a context's routes take as plain text (the rooms'
 * WHIP routes: SDP offers). The context declares its media types and their limit
 * (`BoundedContext.textBodies`); http-app.ts adds a parser for them, and only a route marked
 * `@RouteConfig({ textBody: true })` accepts them (it checks which type it got itself). Elsewhere
 * they are refused with a 415, like any other body that is not JSON.
 */
export interface TextBody {
  readonly mediaTypes: readonly string[];
  readonly limitBytes: number;
}
