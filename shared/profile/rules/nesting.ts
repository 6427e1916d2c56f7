/**
 * Rules on the graph of nested profiles (SPEC §6): every `targetProfile` names a
 * profile of the same definitions, nesting never loops, goes at most
 * `LIMITS.nestingDepth` levels deep (a level is one parent → child edge), and a parent
 * that publishes addresses has its children in its own hosted zone (its records are
 * aliases to them, and a Route 53 alias reaches only records of its own hosted zone).
 */
import { LIMITS } from '../defaults.js';
import type { ValidationIssue } from '../issues.js';

export interface NestingNode {
  /** Index in the definitions list. */
  readonly index: number;
  readonly name: string;
  readonly edges: readonly { readonly endpointIndex: number; readonly targetProfile: string }[];
  /** The profile's hosted zone, when its dnsConfig is valid enough to tell. */
  readonly zone?: HostedZoneRef;
  /** Some external endpoint targets a host name (the profile then publishes CNAMEs). */
  readonly hostNameTargets: boolean;
}

export interface HostedZoneRef {
  readonly zoneName: string;
  readonly hostedZoneId?: string;
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
  issues.push(...crossZoneAliases(nodes, edgesOf));

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

/**
 * A profile publishes host names (CNAMEs, also to its children's names) when an endpoint
 * in its subtree targets a host name; otherwise its nested endpoints are aliases, which
 * Route 53 resolves only within the hosted zone of the alias record.
 */
function crossZoneAliases(
  nodes: readonly NestingNode[],
  edgesOf: ReadonlyMap<NestingNode, readonly Edge[]>,
): ValidationIssue[] {
  const hostNames = new Map<NestingNode, boolean>();
  const publishesHostNames = (node: NestingNode): boolean => {
    const known = hostNames.get(node);
    if (known !== undefined) return known;
    const result = node.hostNameTargets || (edgesOf.get(node) ?? []).some((e) => publishesHostNames(e.to));
    hostNames.set(node, result);
    return result;
  };
  const issues: ValidationIssue[] = [];
  for (const node of nodes) {
    if (node.zone === undefined || publishesHostNames(node)) continue;
    for (const edge of edgesOf.get(node) ?? []) {
      const child = edge.to.zone;
      if (child === undefined || sameHostedZone(node.zone, child)) continue;
      issues.push(
        issueAt(
          node,
          edge.endpointIndex,
          'nested-zone',
          edge.to.name,
          `must name a profile in the same hosted zone as ${JSON.stringify(node.name)} (${describeZone(node.zone)}): ${JSON.stringify(edge.to.name)} is in ${describeZone(child)}, ${JSON.stringify(node.name)} in ${describeZone(node.zone)}, and Route 53 aliases reach only records of their own hosted zone — move the child into that zone, or give the parent host-name endpoints (it then publishes a CNAME to the child, which works across zones)`,
        ),
      );
    }
  }
  return issues;
}

function sameHostedZone(a: HostedZoneRef, b: HostedZoneRef): boolean {
  if (a.hostedZoneId !== undefined && b.hostedZoneId !== undefined) return a.hostedZoneId === b.hostedZoneId;
  return a.zoneName === b.zoneName;
}

function describeZone(zone: HostedZoneRef): string {
  return zone.hostedZoneId === undefined ? zone.zoneName : `${zone.zoneName} ${zone.hostedZoneId}`;
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
