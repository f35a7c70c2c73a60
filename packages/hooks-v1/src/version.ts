import manifest from '../package.json' with { type: 'json' };

/** Sent in `User-Agent: scoby-controller/<version>` unless the caller names its own version. */
export const CLIENT_VERSION: string = manifest.version;
