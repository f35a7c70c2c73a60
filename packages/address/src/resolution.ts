/** The outcome of resolving or merging an address: a URL, or a message a person understands. */
export type Resolution = { ok: true; url: string } | { ok: false; message: string };
