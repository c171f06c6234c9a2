import { HEAP_GROWING_PERCENT, heapFlags, tuneHeap } from './heap-tuning';

// docs/performance.md, "The old generation grows by 30%, not up to 4x" and "V8's allocation-site pretenuring is off": the service sets its heap growth and turns V8's
// allocation-site pretenuring off, unless it was started with a setting of its own for either.
describe('heap tuning', () => {
  const both = [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`, '--no-allocation-site-pretenuring'];

  it('sets both for a plain start and beside other flags', () => {
    expect(heapFlags([])).toEqual(both);
    expect(heapFlags(['--enable-source-maps', '--max-old-space-size=512', '--heap-growing-percentage=5'])).toEqual(
      both,
    );
  });

  it('leaves each one alone when the command line gives it, in either spelling', () => {
    expect(heapFlags(['--heap-growing-percent=50'])).toEqual(['--no-allocation-site-pretenuring']);
    expect(heapFlags(['--enable-source-maps', '--heap_growing_percent=50'])).toEqual([
      '--no-allocation-site-pretenuring',
    ]);
    expect(heapFlags(['--allocation-site-pretenuring'])).toEqual([both[0]]);
    expect(heapFlags(['--no_allocation_site_pretenuring', '--heap-growing-percent=20'])).toEqual([]);
  });

  it('hands every flag it chose to V8', () => {
    const set = jest.fn();
    expect(tuneHeap(['--heap-growing-percent=50'], set)).toEqual(['--no-allocation-site-pretenuring']);
    expect(set.mock.calls).toEqual([['--no-allocation-site-pretenuring']]);
  });
});
