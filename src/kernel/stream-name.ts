/**
 * Streams are named `<category>-<entity id>`, one per entity (`session-ses_…`, `tenant-ten_…`).
 * A stream name builds the name from an id and reads the id back, so no code slices strings.
 */
export type StreamName = ((id: string) => string) & {
  readonly category: string;
  /** Whether the stream is of this category. */
  owns(streamId: string): boolean;
  /** The entity id of a stream of this category; throws for a stream of another category. */
  idOf(streamId: string): string;
};

export function streamName(category: string): StreamName {
  const prefix = `${category}-`;
  return Object.assign((id: string) => `${prefix}${id}`, {
    category,
    owns: (streamId: string): boolean => streamId.startsWith(prefix),
    idOf(streamId: string): string {
      if (!streamId.startsWith(prefix)) throw new Error(`stream ${streamId} is not a ${category} stream`);
      return streamId.slice(prefix.length);
    },
  });
}
