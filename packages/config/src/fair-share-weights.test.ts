import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('FAIR_SHARE_WEIGHTS', () => {
  it('is empty by default: every organization weighs 1', () => {
    expect(loadConfig({}).fairShare).toEqual({ weights: new Map(), metricsOrganizations: 10 });
  });

  it('reads organizationId=weight pairs', () => {
    const { weights } = loadConfig({ FAIR_SHARE_WEIGHTS: ' org-a=3, org-b = 0.5 ,' }).fairShare;
    expect(weights).toEqual(
      new Map([
        ['org-a', 3],
        ['org-b', 0.5],
      ]),
    );
  });

  it.each(['org-a', 'org-a=0', 'org-a=-1', 'org-a=heavy', 'org-a=1001', '=2'])(
    'refuses %j, naming the variable',
    (value) => {
      expect(() => loadConfig({ FAIR_SHARE_WEIGHTS: value })).toThrow(/FAIR_SHARE_WEIGHTS/);
    },
  );
});
