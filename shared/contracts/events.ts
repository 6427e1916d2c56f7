/**
 * The event contract: status events on the deployment's EventBridge bus. Subscribers match
 * on `source` and `detail-type`; the emitter and the CDK stacks import these names.
 */

/** The `source` of every event the evaluator puts on the bus. */
export const EVENT_SOURCE = 'traffic-manager';

export const EventDetailType = {
  /** An endpoint monitor status changed (`detail.endpoint` names it). */
  endpointStatusChanged: 'EndpointStatusChanged',
  /** A profile monitor status changed. */
  profileStatusChanged: 'ProfileStatusChanged',
  /** Route 53 refused one profile's change; the rest of its zone was published without it. */
  publishRejected: 'PublishRejected',
  /** Someone else changed a record set at an owned name; the reconcile put back what was published. */
  driftRepaired: 'DriftRepaired',
  /** An HTTPS endpoint presents a certificate with fewer than its profile's certificateWarningDays left (once per certificate). */
  certificateExpiring: 'CertificateExpiring',
} as const;
export type EventDetailType = (typeof EventDetailType)[keyof typeof EventDetailType];
