/**
 * Reading Azure's files for tm import azure: whatever a file holds that is not a Traffic
 * Manager profile, or cannot be read, is a problem or a note naming the file and the field
 * — never a crash, never a silent drop.
 */
import { describe, expect, it } from 'vitest';
import { readAzureDocuments } from '../../shared/azure/documents.js';

const PROFILE = 'Microsoft.Network/trafficManagerProfiles';
const EXTERNAL = 'Microsoft.Network/trafficManagerProfiles/externalEndpoints';

const template = (resources: unknown[], extra: Record<string, unknown> = {}) => ({
  file: 'tm.json',
  content: { $schema: 'deploymentTemplate.json#', resources, ...extra },
});
const external = (name: string) => ({ name, type: EXTERNAL, properties: { target: `${name}.example.net` } });

describe('tm import azure: reading the files', () => {
  it('a file that is no Azure document is named as such', () => {
    const { problems, profiles } = readAzureDocuments([
      { file: 'n.json', content: 42 },
      { file: 'o.json', content: { kind: 'something else' } },
    ]);
    expect(profiles).toEqual([]);
    expect(problems.map((p) => p.where)).toEqual(['n.json', 'o.json']);
    expect(problems[0]?.message).toMatch(/^is neither an ARM template \(resources\), a parameters file/);
  });

  it('parameters: a Key Vault reference and a bare value are refused, naming the parameter', () => {
    const { problems } = readAzureDocuments([
      {
        file: 'p.json',
        content: {
          $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentParameters.json#',
          parameters: { ok: { value: 'x' }, secret: { reference: { keyVault: {} } }, bare: 'x' },
        },
      },
    ]);
    expect(problems).toEqual([
      {
        where: 'p.json parameters.secret.reference',
        message: 'is a Key Vault reference, which tm import azure does not read: give the value',
      },
      { where: 'p.json parameters.bare', message: 'must be { "value": … }' },
    ]);
  });

  it('az list JSON: a profile or endpoint without a name, and an endpoint of another type, are problems', () => {
    const { problems, profiles } = readAzureDocuments([
      {
        file: 'list.json',
        content: [
          { type: PROFILE },
          {
            name: 'shop',
            type: PROFILE,
            endpoints: [external('east'), { type: EXTERNAL }, { name: 'odd', type: 'Microsoft.Web/sites' }],
          },
        ],
      },
    ]);
    expect(profiles.map((p) => [p.name, p.endpoints.map((e) => [e.name, e.kind])])).toEqual([
      [
        'shop',
        [
          ['east', 'external'],
          ['odd', undefined],
        ],
      ],
    ]);
    expect(problems).toEqual([
      { where: 'list.json [0]', message: 'must be a Traffic Manager profile with a name' },
      { where: 'list.json [1] "shop" endpoints[1]', message: 'must be an endpoint with a name' },
      {
        where: 'list.json [1] "shop" endpoints[2] "odd".type',
        message:
          'is not an endpoint type of Traffic Manager (externalEndpoints, nestedEndpoints, azureEndpoints), got "Microsoft.Web/sites"',
      },
    ]);
  });

  it('ARM templates: every resource that cannot be imported is a problem or a note at its place', () => {
    const { problems, notes, profiles } = readAzureDocuments([
      template([
        'not a resource',
        { type: PROFILE, name: 'skipped', condition: false },
        { type: PROFILE, name: 'looped', copy: { name: 'c', count: 'two' } },
        { type: PROFILE },
        {
          type: PROFILE,
          name: 'shop',
          apiVersion: '2017-05-01',
          dependsOn: ['x'],
          sku: 'free',
          resources: [{ type: 'Microsoft.Web/sites', name: 'app' }, 'text', { ...external('inner') }],
        },
        { ...external('shop/beside') },
        { ...external('a/b/c') },
        { ...external('other/orphan') },
      ]),
    ]);
    expect(profiles.map((p) => [p.name, p.endpoints.map((e) => e.name)])).toEqual([
      ['shop', ['inner', 'beside']],
    ]);
    expect(problems).toEqual([
      { where: 'tm.json resources[0]', message: 'must be a resource object' },
      { where: 'tm.json resources[2].copy.count', message: 'must be an integer 0–1000, got "two"' },
      { where: 'tm.json resources[3].name', message: 'must be the resource name' },
      {
        where: 'tm.json resources[4] "shop".sku',
        message: 'is not a field of this ARM resource that tm import azure knows',
      },
      {
        where: 'tm.json resources[4] "shop" resources[0].type',
        message:
          'is not an endpoint resource of a Traffic Manager profile (externalEndpoints, nestedEndpoints, azureEndpoints), got "Microsoft.Web/sites"',
      },
      {
        where: 'tm.json resources[4] "shop" resources[1].type',
        message:
          'is not an endpoint resource of a Traffic Manager profile (externalEndpoints, nestedEndpoints, azureEndpoints), got "text"',
      },
      {
        where: 'tm.json resources[6].name',
        message: 'must be "PROFILE/ENDPOINT" for an endpoint resource beside its profile, got "a/b/c"',
      },
      {
        where: 'tm.json resources[7] "orphan"',
        message:
          'belongs to the profile "other", which none of the files imported defines: give the file of the profile too',
      },
    ]);
    expect(notes.map((n) => n.where)).toEqual([
      'tm.json resources[1].condition',
      'tm.json resources[4] "shop".apiVersion',
      'tm.json resources[4] "shop".dependsOn',
    ]);
  });

  it('a parameter default or variable that refers to itself is a problem at the field that uses it, and the only one', () => {
    const { problems } = readAzureDocuments([
      template(
        [
          { type: PROFILE, name: "[parameters('loop')]" },
          { type: PROFILE, name: "[variables('again')]" },
        ],
        {
          parameters: { loop: { type: 'string', defaultValue: "[parameters('loop')]" } },
          variables: { again: "[variables('again')]" },
        },
      ),
    ]);
    expect(problems).toEqual([
      { where: 'tm.json resources[0].name', message: `refers to itself (loop), got "[parameters('loop')]"` },
      { where: 'tm.json resources[1].name', message: `refers to itself (again), got "[variables('again')]"` },
    ]);
  });

  it('a property copy loop without a count is a problem at the loop, not a profile without those endpoints', () => {
    const { problems, profiles } = readAzureDocuments([
      template([
        {
          type: PROFILE,
          name: 'shop',
          properties: { copy: [{ name: 'endpoints', input: { name: "[concat('e', copyIndex())]" } }] },
        },
      ]),
    ]);
    expect(profiles).toEqual([]);
    expect(problems).toEqual([
      {
        where: 'tm.json resources[0].properties.copy[0]',
        message: expect.stringMatching(
          /^must be \{ "name": …, "count": …, "input": … \}, an ARM property copy loop, got "\{.*endpoints/,
        ),
      },
    ]);
  });
});
