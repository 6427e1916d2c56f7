/**
 * The base of every traffic-manager error. Each module has its own `errors.ts` with a base class
 * for the module and one subclass per kind of failure; every class sets both fields as class
 * fields:
 *
 * - `name`: the class name, written out (the Lambda bundles are minified, so a constructor's
 *   own name is not kept);
 * - `code`: stable and machine-readable, upper snake case (`INVALID_DEFINITIONS`), for callers
 *   that branch on the kind of failure without parsing messages. The local AWS stand-ins'
 *   errors carry the AWS error code they answer with (`InvalidChangeBatch`) instead.
 *
 * Messages are for people: they name the place, the rule and the value.
 */
export abstract class TrafficManagerError extends Error {
  abstract override readonly name: string;
  abstract readonly code: string;
}
