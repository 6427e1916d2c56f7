/** Builds the whole deployment into an app from a definitions source (what `app.ts` runs). */
import type { App } from 'aws-cdk-lib';
import { loadProfiles, type DefinitionsSource } from './definitions.js';
import { TrafficManager, type TrafficManagerProps } from './traffic-manager.js';

export interface BuildAppOptions extends Omit<TrafficManagerProps, 'profiles'> {
  /** A definitions file (`.ts`, `.json`, `.yaml`) or normalized profiles. */
  readonly definitions: DefinitionsSource;
}

export async function buildApp(app: App, options: BuildAppOptions): Promise<TrafficManager> {
  const { definitions, ...props } = options;
  return new TrafficManager(app, 'TrafficManager', {
    ...props,
    // The deployment's default applies to a definitions file as to profiles written in the app.
    profiles: await loadProfiles(definitions, { staticFailover: props.staticFailover }),
  });
}
