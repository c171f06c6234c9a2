import type { FastifyReply, FastifyRequest } from 'fastify';
import { FairTurns } from './fair-turns';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const request = (method: string) => ({ method }) as FastifyRequest;
const reply = {} as FastifyReply;

describe('FairTurns (docs/performance.md rule 10)', () => {
  it('starts reads in arrival order, one per turn of the event loop, after the first', async () => {
    const turns = new FairTurns();
    const started: string[] = [];
    for (const name of ['a', 'b', 'c', 'd']) turns.hook(request('GET'), reply, () => started.push(name));
    expect(started).toEqual(['a']);
    expect(turns.queued).toBe(3);

    await nextTurn();
    expect(started).toEqual(['a', 'b']);
    // A read arriving now queues behind the ones that came before it.
    turns.hook(request('GET'), reply, () => started.push('e'));
    await nextTurn();
    expect(started).toEqual(['a', 'b', 'c']);
    await nextTurn();
    await nextTurn();
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(turns.queued).toBe(0);
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
