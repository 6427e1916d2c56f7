/**
 * The CDK app of `cdk.json`: reads the definitions file and the regions from context
 * (`-c traffic-manager:definitions=…` overrides), then builds the home stack and one probe
 * stack per region. Invalid definitions print `tm validate`'s lines and fail the synth.
 */
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from './build-app.js';
import { contextOptions, nagEnabled } from './context.js';
import { DefinitionsLoadError } from '../definitions/errors.js';
import { TrafficManagerCdkError } from './errors.js';

const app = new App();
const context = (key: string): unknown => app.node.tryGetContext(key);
let nag: boolean;
try {
  nag = nagEnabled(context);
  await buildApp(app, contextOptions(context));
} catch (error) {
  if (!(error instanceof TrafficManagerCdkError || error instanceof DefinitionsLoadError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
if (nag) Aspects.of(app).add(new AwsSolutionsChecks());
app.synth();
