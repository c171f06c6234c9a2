import { heapGrowthGiven } from './heap-growth';

// docs/performance.md, rule 12: the service sets its heap growth unless it was started with one.
describe('heapGrowthGiven', () => {
  it('is false for a plain start and for other flags', () => {
    expect(heapGrowthGiven([])).toBe(false);
    expect(heapGrowthGiven(['--enable-source-maps', '--max-old-space-size=512'])).toBe(false);
    expect(heapGrowthGiven(['--heap-growing-percentage=5'])).toBe(false);
  });

  it('sees the flag on the command line, in either spelling', () => {
    expect(heapGrowthGiven(['--heap-growing-percent=50'])).toBe(true);
    expect(heapGrowthGiven(['--enable-source-maps', '--heap_growing_percent=50'])).toBe(true);
  });
});
