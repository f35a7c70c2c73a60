import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BODY_VALIDATORS_FILE, renderBodyValidators } from '../scripts/render-body-validators.ts';

describe('committed artefacts are generated from the body schemas', () => {
  it('src/body-validators.generated.ts is up to date', () => {
    expect(
      readFileSync(BODY_VALIDATORS_FILE, 'utf8'),
      'stale: run `npm run generate -w @scoby/hooks-v1`',
    ).toBe(renderBodyValidators());
  });
});
