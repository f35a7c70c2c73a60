/** The object a destination `ref` names, with its namespace already filled in. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

export type ReadResult =
  | { found: true; object: unknown }
  /** The object could not be read; `message` is the API server's (not found, forbidden, …). */
  | { found: false; message: string }
  /** API discovery does not know `kind` in `apiVersion`. */
  | { unknownKind: true };

/** Reads the objects destinations point at; the controller implements it over the API server. */
export interface ObjectReader {
  get(ref: ObjectRef): Promise<ReadResult>;
}
