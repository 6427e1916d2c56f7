import type { Prober } from '../../../shared/probe/target.js';
import { probeHttp } from './http.js';
import { probeTcp } from './tcp.js';

/** The one probe function: dispatches on the target's protocol (HTTP and HTTPS share a prober). */
export const probe: Prober = (request, timeoutMs) =>
  request.protocol === 'TCP' ? probeTcp(request, timeoutMs) : probeHttp(request, timeoutMs);
