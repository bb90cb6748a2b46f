/**
 * A stack's `findings` (the mock's documented addition) is typed, from the contract: on the stack that
 * `control.recordFinding` answers and on the SDK's `IacStack` (what `client.iacExplorer.stacks` gives).
 * Checked by `pnpm typecheck`; each `@ts-expect-error` is a mistake that must not compile.
 */
import type { IacmClient, IacStack } from '@iacm/sdk';
import type { StackFindings as ContractStackFindings } from '@iacm/sdk/contract';
import { describe, expectTypeOf, it } from 'vitest';
import { createMockServer, type StackFindings } from '../src/index.js';

describe("a stack's findings are typed", () => {
  it('on the stack control.recordFinding answers', () => {
    const mock = createMockServer();
    const { stack } = mock.control.recordFinding('a0a0a0a0a0a0a0a0a0a0a0a0', { kind: 'Drift' });
    const drifts: number | undefined = stack.findings?.drifts;
    expectTypeOf(drifts).toEqualTypeOf<number | undefined>();
    expectTypeOf(stack.findings).toEqualTypeOf<ContractStackFindings | undefined>();
    // @ts-expect-error the counts are drifts, ghosts, unmanaged and insights
    stack.findings?.drift;
  });

  it("on the SDK's stack type, the one type of the contract and the mock", () => {
    expectTypeOf<IacStack['findings']>().toEqualTypeOf<ContractStackFindings | undefined>();
    expectTypeOf<StackFindings>().toEqualTypeOf<ContractStackFindings>();
    const readDrifts = async (client: IacmClient) => {
      const { hits } = await client.iacExplorer.stacks({ pageSize: 10 });
      return hits[0]?.findings?.drifts;
    };
    expectTypeOf(readDrifts).returns.resolves.toEqualTypeOf<number | undefined>();
    expectTypeOf<ContractStackFindings>().toEqualTypeOf<{
      drifts: number;
      ghosts: number;
      unmanaged: number;
      insights: number;
    }>();
  });
});
