import { heapGrowthGiven } from './heap-growth';

// docs/performance.md, rule 12: the service sets its heap growth unless it was started with one.
describe('heapGrowthGiven', () => {
  it('is false for a plain start', () => {
    expect(heapGrowthGiven([], undefined)).toBe(false);
    expect(heapGrowthGiven(['--enable-source-maps'], '--max-old-space-size=512')).toBe(false);
  });

  it('sees the flag on the command line, in either spelling', () => {
    expect(heapGrowthGiven(['--heap-growing-percent=50'], undefined)).toBe(true);
    expect(heapGrowthGiven(['--heap_growing_percent=50'], '')).toBe(true);
  });

  it('sees the flag in NODE_OPTIONS', () => {
    expect(heapGrowthGiven([], '--max-old-space-size=512 --heap-growing-percent=80')).toBe(true);
  });
});
