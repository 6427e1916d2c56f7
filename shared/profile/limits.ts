/**
 * The documented limits of what one deployment carries: profiles, endpoints per profile,
 * and the stored size of each profile and of all of them (`LIMITS` in defaults.ts, the
 * limits table in docs/definitions.md). Counts are checked on the raw input with the other
 * rules; sizes on the normalized profiles, which is what is stored.
 */
import { LIMITS } from './defaults.js';
import { isRecord, type ValidationIssue } from './issues.js';
import type { Profile } from './types.js';

export function checkCountLimits(list: readonly unknown[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (list.length > LIMITS.profiles) {
    issues.push({
      path: ['profiles'],
      rule: 'too-many',
      received: list.length,
      message: `must hold at most ${LIMITS.profiles} profiles`,
    });
  }
  for (const [index, profile] of list.entries()) {
    const endpoints = isRecord(profile) ? profile.endpoints : undefined;
    if (Array.isArray(endpoints) && endpoints.length > LIMITS.endpointsPerProfile) {
      issues.push({
        path: ['profiles', index, 'endpoints'],
        rule: 'too-many',
        received: endpoints.length,
        message: `must hold at most ${LIMITS.endpointsPerProfile} endpoints`,
      });
    }
  }
  return issues;
}

/** The profile as the CONFIG item stores it (`definition`, shared/state/items.ts). */
export function storedDefinitionOf(profile: Profile): string {
  return JSON.stringify(profile);
}

export function checkStoredSizes(profiles: readonly Profile[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  let total = 0;
  for (const [index, profile] of profiles.entries()) {
    // Validated profiles hold ASCII only, so characters are bytes.
    const bytes = storedDefinitionOf(profile).length;
    total += bytes;
    if (bytes > LIMITS.profileDefinitionBytes) {
      issues.push({
        path: ['profiles', index],
        rule: 'profile-size',
        received: undefined,
        receivedText: `${bytes} bytes`,
        message: `must take at most ${LIMITS.profileDefinitionBytes} bytes as stored (one DynamoDB item; fewer or shorter endpoints and headers, or split it with nested profiles)`,
      });
    }
  }
  if (total > LIMITS.definitionsBytes) {
    issues.push({
      path: [],
      rule: 'definitions-size',
      received: undefined,
      receivedText: `${total} bytes`,
      message: `must take at most ${LIMITS.definitionsBytes} bytes as stored, all profiles together (the config writer reads them whole)`,
    });
  }
  return issues;
}
