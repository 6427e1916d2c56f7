/** Static failover under the Route 53 API's and the home region's outages (the cases: static-failover-faults.ts). */
import { describeFaults } from './static-failover-faults.js';

describeFaults(['route53-api', 'home-region']);
