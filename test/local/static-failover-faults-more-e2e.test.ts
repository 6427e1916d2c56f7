/** Static failover with both cut, with one probe region silent, and a Weighted profile (the cases: static-failover-faults.ts). */
import { describeFaults } from './static-failover-faults.js';

describeFaults(['route53-api and home-region', 'one probe region silent', 'weighted']);
