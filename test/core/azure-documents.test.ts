/**
 * Reading Azure's files for tm import azure: whatever a file holds that is not a Traffic
 * Manager profile, or cannot be read, is a problem or a note naming the file and the field
 * — never a crash, never a silent drop.
 */
import { describe, expect, it } from 'vitest';
import { readAzureDocuments } from '../../shared/azure/documents.js';

const PROFILE = 'Microsoft.Network/trafficManagerProfiles';
const EXTERNAL = 'Microsoft.Network/trafficManagerProfiles/externalEndpoints';

const template = (resources: unknown[] | Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
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

  it('ARM templates: parameters from the parameters files (any case; two files add up), else the defaultValue, a nullable one left out; variables and their copy loops; property copy loops by name', () => {
    const { problems, notes, profiles } = readAzureDocuments([
      template(
        [
          {
            type: PROFILE,
            name: "[parameters('name')]",
            properties: {
              trafficRoutingMethod: 'Priority',
              dnsConfig: { relativeName: "[variables('prefix')]", ttl: "[parameters('ttl')]" },
              monitorConfig: {
                protocol: 'HTTPS',
                port: "[parameters('port')]",
                path: "[parameters('probePath')]",
              },
              copy: [
                {
                  name: 'endpoints',
                  count: "[length(variables('hosts'))]",
                  input: {
                    name: "[parameters('regions')[copyIndex('endpoints')]]",
                    type: 'externalEndpoints',
                    properties: {
                      target: "[variables('hosts')[copyIndex('ENDPOINTS')]]",
                      priority: "[copyIndex('endpoints', 1)]",
                    },
                  },
                },
              ],
            },
          },
        ],
        {
          parameters: {
            name: { type: 'string' },
            ttl: { type: 'int', defaultValue: 30 },
            port: { type: 'int', defaultValue: 80 },
            probePath: { type: 'string', nullable: true },
            regions: { type: 'array', defaultValue: ['east', 'west'] },
          },
          variables: {
            prefix: "[toLower(parameters('name'))]",
            copy: [
              {
                name: 'hosts',
                count: "[length(parameters('regions'))]",
                input: "[concat(parameters('regions')[copyIndex('hosts')], '.example.net')]",
              },
            ],
          },
        },
      ),
      {
        file: 'p.json',
        content: {
          $schema: 'x/deploymentParameters.json#',
          parameters: { Name: { value: 'Shop' }, extra: { value: 1 } },
        },
      },
      { file: 'p2.json', content: { parameters: { PORT: { value: 443 } } } },
    ]);
    expect(problems).toEqual([]);
    expect(profiles).toEqual([
      {
        where: 'tm.json resources[0] "Shop"',
        name: 'Shop',
        fields: {
          trafficRoutingMethod: 'Priority',
          dnsConfig: { relativeName: 'shop', ttl: 30 },
          monitorConfig: { protocol: 'HTTPS', port: 443 },
        },
        endpoints: [
          {
            where: 'tm.json resources[0] "Shop" properties.endpoints[0] "east"',
            name: 'east',
            kind: 'external',
            fields: { target: 'east.example.net', priority: 1 },
          },
          {
            where: 'tm.json resources[0] "Shop" properties.endpoints[1] "west"',
            name: 'west',
            kind: 'external',
            fields: { target: 'west.example.net', priority: 2 },
          },
        ],
      },
    ]);
    expect(notes).toEqual([
      { where: 'p.json parameters.extra', message: 'is not a parameter of any template imported: not used' },
    ]);
  });

  it('ARM templates: copyIndex() of an outer loop inside a property loop, one profile per copy of the resource', () => {
    const { problems, profiles } = readAzureDocuments([
      template([
        {
          type: PROFILE,
          name: "[concat('shop', copyIndex())]",
          copy: { name: 'profiles', count: 2 },
          properties: {
            copy: [
              {
                name: 'endpoints',
                count: 2,
                input: {
                  name: "[concat('e', copyIndex())]",
                  properties: {
                    target:
                      "[concat('e', copyIndex('Profiles'), '-', copyIndex('endpoints'), '.example.net')]",
                  },
                },
              },
            ],
          },
        },
      ]),
    ]);
    expect(problems).toEqual([]);
    expect(profiles.map((p) => [p.where, p.endpoints.map((e) => [e.name, e.fields.target])])).toEqual([
      [
        'tm.json resources[0] (copy 0) "shop0"',
        [
          ['e0', 'e0-0.example.net'],
          ['e1', 'e0-1.example.net'],
        ],
      ],
      [
        'tm.json resources[0] (copy 1) "shop1"',
        [
          ['e0', 'e1-0.example.net'],
          ['e1', 'e1-1.example.net'],
        ],
      ],
    ]);
  });

  it('ARM templates: a property copy loop that cannot be expanded is a problem at the loop or its count, the resource not read', () => {
    const { problems, profiles } = readAzureDocuments([
      template([
        {
          type: PROFILE,
          name: 'shop',
          properties: {
            copy: [
              'x',
              { name: 'a', count: 1 },
              { name: 'b', count: "[parameters('missing')]", input: {} },
              { name: 'c', count: -1, input: {} },
              { name: 'd', count: 1001, input: {} },
              { name: 'e', count: 1.5, input: {} },
              { name: 'f', count: 'two', input: {} },
            ],
          },
        },
      ]),
    ]);
    expect(profiles).toEqual([]);
    const loop = /^must be \{ "name": …, "count": …, "input": … \}, an ARM property copy loop, got /;
    expect(problems).toEqual([
      { where: 'tm.json resources[0].properties.copy[0]', message: expect.stringMatching(loop) },
      { where: 'tm.json resources[0].properties.copy[1]', message: expect.stringMatching(loop) },
      {
        where: 'tm.json resources[0].properties.copy[2].count',
        message: `names the parameter "missing", which has no value (not in the template, its defaultValue or a parameters file), got "[parameters('missing')]"`,
      },
      ...[-1, 1001, 1.5, '"two"'].map((count, index) => ({
        where: `tm.json resources[0].properties.copy[${index + 3}].count`,
        message: expect.stringContaining(`count must be an integer 0–1000, got ${count}`),
      })),
    ]);
  });

  it('ARM templates: a field named copy that is not a list of loops is evaluated as a field, for validation to judge', () => {
    const { problems, profiles } = readAzureDocuments([
      template([
        {
          type: PROFILE,
          name: 'shop',
          properties: { monitorConfig: { copy: "[concat('a', 'b')]", path: null } },
        },
      ]),
    ]);
    expect(problems).toEqual([]);
    expect(profiles[0]?.fields).toEqual({ monitorConfig: { copy: 'ab' } });
  });

  it('ARM templates: a parameter or variable without a value is a problem at the field that uses it', () => {
    const { problems } = readAzureDocuments([
      template(
        [
          "[variables('negative')[0]]",
          "[variables('noInput')]",
          "[variables('nothing')]",
          "[parameters('notDeclaredRight')]",
          "[parameters('noDefault')]",
          "[parameters('undeclared')]",
        ].map((name) => ({ type: PROFILE, name })),
        {
          parameters: { notDeclaredRight: 'string', noDefault: { type: 'string' } },
          variables: {
            copy: ['not a loop', { name: 'negative', count: -1, input: 'x' }, { name: 'noInput', count: 1 }],
          },
        },
      ),
      {
        file: 'other.json',
        content: { resources: [{ type: PROFILE, name: "[variables('gone')]" }], variables: {} },
      },
    ]);
    const noValue = (kind: string, name: string) =>
      kind === 'parameter'
        ? `names the parameter "${name}", which has no value (not in the template, its defaultValue or a parameters file), got "[parameters('${name}')]"`
        : `names the variable "${name}", which has no value (not in the template), got "[variables('${name}')]"`;
    expect(problems).toEqual([
      {
        where: 'tm.json resources[0].name',
        message: `count must be an integer 0–1000, got -1, got "[variables('negative')[0]]"`,
      },
      {
        where: 'tm.json resources[1].name',
        message: `must be { "name": …, "count": …, "input": … }, an ARM property copy loop, got "[variables('noInput')]"`,
      },
      { where: 'tm.json resources[2].name', message: noValue('variable', 'nothing') },
      { where: 'tm.json resources[3].name', message: noValue('parameter', 'notDeclaredRight') },
      { where: 'tm.json resources[4].name', message: noValue('parameter', 'noDefault') },
      { where: 'tm.json resources[5].name', message: noValue('parameter', 'undeclared') },
      { where: 'other.json resources[0].name', message: noValue('variable', 'gone') },
    ]);
  });

  it('ARM templates: resources keyed by symbolic name (languageVersion 2.0), with what is not imported reported and why', () => {
    const { problems, notes, profiles } = readAzureDocuments([
      template(
        {
          profile: {
            type: PROFILE,
            name: 'shop',
            location: 'global',
            tags: { team: 'web' },
            condition: '[equals(1, 1)]',
            properties: {
              trafficRoutingMethod: 'Priority',
              endpoints: [
                {
                  id: '[resourceGroup().id]',
                  name: 'east',
                  type: EXTERNAL,
                  properties: { target: 'east.example.net' },
                },
                { type: EXTERNAL, properties: { target: 'x.example.net' } },
              ],
            },
            resources: [
              {
                type: 'externalEndpoints',
                name: 'shop/west',
                apiVersion: '2015-11-01',
                dependsOn: ['profile'],
                properties: { target: 'west.example.net' },
              },
              { type: 'externalEndpoints', name: 'north' },
            ],
          },
          module: { type: 'Microsoft.Resources/deployments', name: "[uniqueString('x')]" },
          elsewhere: { type: PROFILE, name: 'old', existing: true },
          undecided: { type: PROFILE, name: 'f', condition: "[parameters('deploy')]" },
          site: { type: "[variables('type')]", name: 'site' },
          beside: {
            type: EXTERNAL,
            name: 'shop/south',
            copy: { name: 'c', count: 1 },
            properties: { target: 's.example.net' },
          },
          badCopy: { type: PROFILE, name: 'x', copy: 'three' },
          undecidedCopy: { type: PROFILE, name: 'y', copy: { name: 'c', count: "[parameters('n')]" } },
          tooMany: { type: PROFILE, name: 'z', copy: { name: 'c', count: 1001 } },
        },
        { languageVersion: '2.0', variables: { type: 'Microsoft.Web/sites' } },
      ),
    ]);
    expect(profiles).toEqual([
      {
        where: 'tm.json resources.profile "shop"',
        name: 'shop',
        fields: { trafficRoutingMethod: 'Priority', location: 'global', tags: { team: 'web' } },
        endpoints: [
          expect.objectContaining({ name: 'east', fields: { target: 'east.example.net' } }),
          expect.objectContaining({ name: 'west', fields: { target: 'west.example.net' } }),
          expect.objectContaining({ name: 'north', fields: {} }),
          expect.objectContaining({ name: 'south', where: 'tm.json resources.beside (copy 0) "south"' }),
        ],
      },
    ]);
    expect(problems).toEqual([
      {
        where: 'tm.json resources.profile "shop" properties.endpoints[1]',
        message: 'must be an endpoint with a name',
      },
      {
        where: 'tm.json resources.undecided.condition',
        message: `names the parameter "deploy", which has no value (not in the template, its defaultValue or a parameters file), got "[parameters('deploy')]"`,
      },
      {
        where: 'tm.json resources.badCopy.copy',
        message: 'must be { "name": …, "count": … }, the ARM copy loop of a resource',
      },
      {
        where: 'tm.json resources.undecidedCopy.copy.count',
        message: `names the parameter "n", which has no value (not in the template, its defaultValue or a parameters file), got "[parameters('n')]"`,
      },
      { where: 'tm.json resources.tooMany.copy.count', message: 'must be an integer 0–1000, got 1001' },
    ]);
    expect(notes).toEqual([
      {
        where: 'tm.json resources.profile "shop" properties.endpoints[0].id',
        message: "is the endpoint's Azure resource id (read-only): not carried over",
      },
      {
        where: 'tm.json resources.profile "shop" resources[0].apiVersion',
        message:
          'is 2015-11-01; the import follows the schema of 2018-08-01 and 2022-04-01, whose fields it reads the same way',
      },
      {
        where: 'tm.json resources.profile "shop" resources[0].dependsOn',
        message: 'is ARM deployment metadata: not carried over',
      },
      {
        where: `tm.json resources.module "[uniqueString('x')]"`,
        message: expect.stringMatching(/^is a nested deployment \(a module\), whose template is not read: /),
      },
      {
        where: 'tm.json resources.elsewhere.existing',
        message:
          'is a reference to a resource deployed elsewhere, not deployed by this template: not imported',
      },
      {
        where: 'tm.json resources.site "site"',
        message: 'is a "Microsoft.Web/sites", not a Traffic Manager resource: not imported',
      },
    ]);
  });

  it("REST list JSON and an export's endpoints written twice: the same endpoint imported once, two different ones refused", () => {
    const { problems, notes, profiles } = readAzureDocuments([
      {
        file: 'rest.json',
        content: {
          value: [
            {
              name: 'shop',
              type: PROFILE,
              properties: { endpoints: [external('east'), external('west')] },
            },
            { name: 'bare', type: PROFILE },
          ],
        },
      },
      template([
        { ...external('shop/east'), properties: { target: 'east.example.net' } },
        { ...external('shop/west'), properties: { target: 'other.example.net' } },
      ]),
      { file: 'p.json', content: { $schema: 'x/deploymentParameters.json#' } },
    ]);
    expect(profiles.map((p) => [p.where, p.endpoints.map((e) => e.name)])).toEqual([
      ['rest.json value[0] "shop"', ['east', 'west']],
      ['rest.json value[1] "bare"', []],
    ]);
    expect(notes).toEqual([
      {
        where: 'tm.json resources[0] "east"',
        message:
          'is rest.json value[0] "shop" endpoints[0] "east" again, as an export writes it: imported once',
      },
    ]);
    expect(problems).toEqual([
      {
        where: 'tm.json resources[1] "west"',
        message:
          'has the name of rest.json value[0] "shop" endpoints[1] "west" with other fields: keep one of them',
      },
    ]);
  });
});
