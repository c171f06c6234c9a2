import type { FastifyReply, FastifyRequest } from 'fastify';
import { FairTurns, TURN_BUDGET_MS } from './fair-turns';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const request = (method: string) => ({ method }) as FastifyRequest;
const reply = {} as FastifyReply;

/** A loop clock that moves only when a started read "runs": each costs `costMs` of loop time. */
function loopClock() {
  const clock = { now: 0, costMs: TURN_BUDGET_MS };
  const run = () => (clock.now += clock.costMs);
  return { clock, turns: new FairTurns(() => clock.now), run };
}

describe('FairTurns (docs/performance.md, "Reads start in the order they arrived")', () => {
  it('starts reads in arrival order, one per turn while a read costs the whole budget', async () => {
    const { turns, run } = loopClock();
    const started: string[] = [];
    const read = (name: string) => () => (started.push(name), run());
    for (const name of ['a', 'b', 'c', 'd']) turns.hook(request('GET'), reply, read(name));
    expect(started).toEqual(['a']);
    expect(turns.queued).toBe(3);

    await nextTurn();
    expect(started).toEqual(['a', 'b']);
    // A read arriving now queues behind the ones that came before it.
    turns.hook(request('GET'), reply, read('e'));
    await nextTurn();
    expect(started).toEqual(['a', 'b', 'c']);
    await nextTurn();
    await nextTurn();
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(turns.queued).toBe(0);
  });

  it('starts as many cheap reads per turn as fit in the budget, by their measured cost, in order', async () => {
    const { clock, turns, run } = loopClock();
    clock.costMs = TURN_BUDGET_MS / 12; // about 83 µs a read
    const started: number[] = [];
    const perTurn: number[] = [];
    for (let i = 0; i < 400; i++) turns.hook(request('GET'), reply, () => (started.push(i), run()));
    while (turns.queued > 0) {
      const before = started.length;
      await nextTurn();
      perTurn.push(started.length - before);
    }
    expect(started).toEqual(Array.from({ length: 400 }, (_, i) => i));
    expect(perTurn[0]).toBe(1); // the estimate starts at the budget
    // The estimate approaches a twelfth of the budget from above (it starts at the budget), so 11
    // reads fit in a turn.
    expect(perTurn.slice(-10, -1)).toEqual(Array(9).fill(11));
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(12);
  });

  it('goes back to one read per turn as soon as reads become slow', async () => {
    const { clock, turns, run } = loopClock();
    clock.costMs = TURN_BUDGET_MS / 20;
    const started: number[] = [];
    const read = (i: number) => () => (started.push(i), run());
    for (let i = 0; i < 300; i++) turns.hook(request('GET'), reply, read(i));
    while (turns.queued > 0) await nextTurn();
    expect(turns.perTurn).toBeGreaterThanOrEqual(15);

    clock.costMs = 40 * TURN_BUDGET_MS; // a filtered listing holding the loop for 40 ms
    for (let i = 300; i < 320; i++) turns.hook(request('GET'), reply, read(i));
    const perTurn: number[] = [];
    while (turns.queued > 0) {
      const before = started.length;
      await nextTurn();
      perTurn.push(started.length - before);
    }
    // The first turn still goes by the cheap reads' cost; from the next one on, one read per turn.
    expect(perTurn[0]).toBeGreaterThanOrEqual(15);
    expect(perTurn.slice(1)).toEqual(Array(perTurn.length - 1).fill(1));
    expect(started).toEqual(Array.from({ length: 320 }, (_, i) => i));
  });

  it('lets writes start at once, beside waiting reads', () => {
    const turns = new FairTurns();
    const started: string[] = [];
    turns.hook(request('GET'), reply, () => started.push('read 1'));
    turns.hook(request('GET'), reply, () => started.push('read 2'));
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
      turns.hook(request(method), reply, () => started.push(method));
    expect(started).toEqual(['read 1', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
  });

  it('starts a read at once again once the queue is empty and a turn has passed', async () => {
    const turns = new FairTurns();
    const started: string[] = [];
    turns.hook(request('HEAD'), reply, () => started.push('first'));
    await nextTurn();
    await nextTurn();
    turns.hook(request('GET'), reply, () => started.push('later'));
    expect(started).toEqual(['first', 'later']);
  });

  it('keeps the order over many turns (the queue compacts without losing anyone)', async () => {
    const turns = new FairTurns();
    const started: number[] = [];
    const count = 3000;
    for (let i = 0; i < count; i++) turns.hook(request('GET'), reply, () => started.push(i));
    while (turns.queued > 0) await nextTurn();
    expect(started).toEqual(Array.from({ length: count }, (_, i) => i));
  });
});
