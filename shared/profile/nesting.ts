/**
 * Rules on the graph of nested profiles (SPEC §6): every `targetProfile` names a
 * profile of the same definitions, nesting never loops, and goes at most
 * `LIMITS.nestingDepth` levels deep (a level is one parent → child edge).
 */
import { LIMITS } from './defaults.js';
import type { ValidationIssue } from './issues.js';

export interface NestingNode {
  /** Index in the definitions list. */
  readonly index: number;
  readonly name: string;
  readonly edges: readonly { readonly endpointIndex: number; readonly targetProfile: string }[];
}

interface Edge {
  readonly from: NestingNode;
  readonly endpointIndex: number;
  readonly to: NestingNode;
}

export function checkNesting(nodes: readonly NestingNode[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const byName = new Map(nodes.map((node) => [node.name, node]));
  const byLowerName = new Map(nodes.map((node) => [node.name.toLowerCase(), node]));
  const edgesOf = new Map<NestingNode, Edge[]>();
  const targeted = new Set<NestingNode>();
  for (const node of nodes) {
    const edges: Edge[] = [];
    for (const { endpointIndex, targetProfile } of node.edges) {
      const to = byName.get(targetProfile);
      if (to === undefined) {
        const near = byLowerName.get(targetProfile.toLowerCase());
        const hint = near === undefined ? '' : `; did you mean ${JSON.stringify(near.name)}?`;
        issues.push(
          issueAt(
            node,
            endpointIndex,
            'nested-target',
            targetProfile,
            `must name a profile of these definitions${hint}`,
          ),
        );
        continue;
      }
      edges.push({ from: node, endpointIndex, to });
      targeted.add(to);
    }
    edgesOf.set(node, edges);
  }

  // Cycles: a depth-first search reports each edge that closes a loop.
  const state = new Map<NestingNode, 'open' | 'done'>();
  const stack: NestingNode[] = [];
  let cyclic = false;
  const visit = (node: NestingNode): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const edge of edgesOf.get(node) ?? []) {
      const seen = state.get(edge.to);
      if (seen === 'open') {
        cyclic = true;
        const loop = [...stack.slice(stack.indexOf(edge.to)), edge.to].map((n) => n.name).join(' → ');
        issues.push(
          issueAt(
            node,
            edge.endpointIndex,
            'nested-cycle',
            edge.to.name,
            `must not form a nesting cycle: ${loop}`,
          ),
        );
      } else if (seen === undefined) {
        visit(edge.to);
      }
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of nodes) if (!state.has(node)) visit(node);
  if (cyclic) return issues;

  // Depth: the longest chain below each profile; reported once, at the top of the chain.
  const deepest = new Map<NestingNode, { levels: number; via: Edge | undefined }>();
  const depthOf = (node: NestingNode): { levels: number; via: Edge | undefined } => {
    const known = deepest.get(node);
    if (known !== undefined) return known;
    let best: { levels: number; via: Edge | undefined } = { levels: 0, via: undefined };
    for (const edge of edgesOf.get(node) ?? []) {
      const levels = depthOf(edge.to).levels + 1;
      if (levels > best.levels) best = { levels, via: edge };
    }
    deepest.set(node, best);
    return best;
  };
  for (const node of nodes) {
    if (targeted.has(node)) continue;
    const { levels, via } = depthOf(node);
    if (levels <= LIMITS.nestingDepth || via === undefined) continue;
    const chain = [node.name];
    for (let step: Edge | undefined = via; step !== undefined; step = deepest.get(step.to)?.via)
      chain.push(step.to.name);
    issues.push(
      issueAt(
        node,
        via.endpointIndex,
        'nested-depth',
        via.to.name,
        `must not nest more than ${LIMITS.nestingDepth} levels deep: ${chain.join(' → ')} is ${levels} levels`,
      ),
    );
  }
  return issues;
}

function issueAt(
  node: NestingNode,
  endpointIndex: number,
  rule: string,
  received: unknown,
  message: string,
): ValidationIssue {
  return {
    path: ['profiles', node.index, 'endpoints', endpointIndex, 'targetProfile'],
    rule,
    received,
    message,
  };
}
