import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
const t0 = Date.now();
const { TrafficManager } = await import('../../infra/cdk/traffic-manager.js');
const { PROFILES } = await import('./fixtures/profiles.js');
console.log('import', Date.now() - t0);
const app = new App({
  builtinCloudFormationValidation: !process.env.NOVAL,
  context: process.env.NOBUNDLE ? { 'aws:cdk:bundling-stacks': [] } : {},
});
new TrafficManager(app, 'TM', {
  profiles: PROFILES,
  homeRegion: 'us-east-1',
  probeRegions: ['us-east-1', 'eu-west-1'],
});
console.log('construct', Date.now() - t0);
if (process.env.NAG) Aspects.of(app).add(new AwsSolutionsChecks());
app.synth();
console.log('synth', Date.now() - t0);
