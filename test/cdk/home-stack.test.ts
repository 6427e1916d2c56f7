/**
 * The home-region resources inside a stack of the user's own (`homeStack`): the same resources
 * as in the stack TrafficManager creates, beside the user's, with the probe stacks deployed
 * after it; and the settings that cannot work refused with the field named.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { describe, expect, it } from 'vitest';
import { InvalidDeploymentError } from '../../infra/cdk/errors.js';
import { TrafficManager, type TrafficManagerProps } from '../../infra/cdk/traffic-manager.js';
import { PROFILES } from './fixtures/profiles.js';
import { nagErrors, testApp } from './support.js';

const PROPS: TrafficManagerProps = {
  profiles: PROFILES,
  homeRegion: 'us-east-1',
  probeRegions: ['us-east-1', 'eu-west-1'],
};

function resourceTypes(template: Template): string[] {
  return Object.values(template.toJSON().Resources as Record<string, { Type: string }>)
    .map((r) => r.Type)
    .sort();
}

describe('homeStack: the home-region resources in a stack of your own', () => {
  it('holds exactly the resources of the created home stack, beside the user’s own, and the probe stacks deploy after it', () => {
    const created = testApp();
    const standalone = new TrafficManager(created, 'Tm', PROPS);
    created.synth();

    const app = testApp();
    const platform = new Stack(app, 'Platform', { env: { region: 'us-east-1' } });
    new Topic(platform, 'TeamAlerts');
    const tm = new TrafficManager(app, 'Tm', { ...PROPS, homeStack: platform });
    app.synth();

    expect(tm.home).toBe(platform);
    const template = Template.fromStack(platform);
    template.resourceCountIs('AWS::SNS::Topic', 1);
    const withoutTopic = resourceTypes(template);
    withoutTopic.splice(withoutTopic.indexOf('AWS::SNS::Topic'), 1);
    expect(withoutTopic).toEqual(resourceTypes(Template.fromStack(standalone.home)));
    template.hasResourceProperties('AWS::DynamoDB::Table', { TableName: 'traffic-manager' });
    template.hasResourceProperties('AWS::Events::EventBus', { Name: 'traffic-manager' });

    expect(app.node.findAll().some((c) => c instanceof Stack && c.stackName === 'traffic-manager-home')).toBe(
      false,
    );
    expect([...tm.probes.values()].every((probe) => probe.dependencies.includes(platform))).toBe(true);
    // The user's own topic is theirs to harden; the home resources add no finding.
    expect(nagErrors(platform).filter((e) => !e.startsWith('/Platform/TeamAlerts/'))).toEqual([]);
  });

  it('keeps the created home stack’s logical ids as they were (the resources’ construct is `Default`)', () => {
    const app = testApp();
    const tm = new TrafficManager(app, 'Tm', PROPS);
    app.synth();
    const ids = Object.keys(Template.fromStack(tm.home).toJSON().Resources as object);
    expect(ids.filter((id) => id.startsWith('Default'))).toEqual([]);
    expect(ids.some((id) => id.startsWith('StateTable'))).toBe(true);
  });

  it.each([
    [
      'a stack in another region',
      (app: App) => new Stack(app, 'Platform', { env: { region: 'eu-west-1' } }),
      'homeStack: Platform must have env.region us-east-1 (homeRegion), got eu-west-1',
    ],
    [
      'an environment-agnostic stack',
      (app: App) => new Stack(app, 'Platform'),
      'homeStack: Platform must have env.region us-east-1 (homeRegion), got no region (environment-agnostic)',
    ],
    [
      'a stack of another App',
      () => new Stack(new App(), 'Elsewhere', { env: { region: 'us-east-1' } }),
      'homeStack: Elsewhere must be in the same App or Stage as the TrafficManager',
    ],
  ])('refuses %s, naming the field', (_, makeStack, message) => {
    const app = testApp();
    const homeStack = makeStack(app);
    let thrown: unknown;
    try {
      new TrafficManager(app, 'Tm', { ...PROPS, homeStack });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidDeploymentError);
    expect((thrown as Error).message).toContain(message);
  });
});
