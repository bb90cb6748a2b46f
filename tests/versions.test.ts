import { readFileSync } from 'node:fs';
import { VERSION as MOCK_VERSION } from '@iacm/mock-server';
import { VERSION as SDK_VERSION } from '@iacm/sdk';
import { OPENAPI_DOCUMENT_VERSION } from '@iacm/sdk/openapi';
import { VERSION as RECEIVER_VERSION } from '@iacm/webhook-receiver';
import { describe, expect, it } from 'vitest';

const versionOf = (name: string) =>
  (
    JSON.parse(readFileSync(new URL(`../packages/${name}/package.json`, import.meta.url), 'utf8')) as {
      version: string;
    }
  ).version;

describe('version constants', () => {
  it('match each package.json (bump them with `pnpm changeset version`)', () => {
    expect(SDK_VERSION).toBe(versionOf('sdk'));
    expect(OPENAPI_DOCUMENT_VERSION).toBe(versionOf('sdk'));
    expect(MOCK_VERSION).toBe(versionOf('mock-server'));
    expect(RECEIVER_VERSION).toBe(versionOf('webhook-receiver'));
  });
});
