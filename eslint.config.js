import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const ioModules = [
  'fs',
  'net',
  'http',
  'https',
  'tls',
  'dgram',
  'dns',
  'child_process',
  'worker_threads',
  'os',
  'timers',
  'perf_hooks',
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', 'coverage/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['functions/**/*.ts', 'infra/**/*.ts', 'bin/**/*.js'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@cloud-copilot/*'],
              message: 'The IAM simulator is AGPL-3.0: tests only, never shipped code.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@aws-sdk/*',
                '@aws-lambda-powertools/*',
                'undici',
                'aws-cdk-lib',
                'aws-cdk-lib/*',
                'constructs',
              ],
              message: 'shared/ is the pure core: no AWS SDK, undici or CDK.',
            },
            {
              group: ['@cloud-copilot/*'],
              message: 'The IAM simulator is AGPL-3.0: tests only, never shipped code.',
            },
            {
              group: [
                ...ioModules,
                ...ioModules.map((m) => `node:${m}`),
                'fs/*',
                'node:fs/*',
                'dns/*',
                'node:dns/*',
                'timers/*',
                'node:timers/*',
              ],
              message: 'shared/ is the pure core: no I/O modules.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Inject a clock.' },
        { name: 'setInterval', message: 'Inject a clock.' },
        { name: 'fetch', message: 'No I/O in shared/.' },
        { name: 'process', message: 'No environment in shared/.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Inject a clock.' },
        { object: 'Math', property: 'random', message: 'Inject a random source.' },
      ],
    },
  },
);
