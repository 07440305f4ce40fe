import { ApiError } from '../../../src/common/errors/api-error';
import { RenderSlots } from '../../../src/media/services/images/render-slots';

/** A render that finishes when told to. */
function pending(): { work: () => Promise<string>; finish: (value: string) => void } {
  let finish!: (value: string) => void;
  const done = new Promise<string>((resolve) => (finish = resolve));
  return { work: () => done, finish };
}

describe('RenderSlots (docs/decisions/0106-image-render-slots.md)', () => {
  it('runs at most `concurrency` at once, queues `queueLength` more in order, refuses the rest with the 503', async () => {
    const slots = new RenderSlots(2, 1);
    const [a, b, c] = [pending(), pending(), pending()];
    const started: string[] = [];
    const run = (name: string, render: ReturnType<typeof pending>) =>
      slots.run(() => {
        started.push(name);
        return render.work();
      });
    const first = run('a', a);
    const second = run('b', b);
    const third = run('c', c);
    await Promise.resolve();
    expect(started).toEqual(['a', 'b']);
    expect(slots.load).toEqual({ active: 2, waiting: 1 });
    const refused = await run('d', pending()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).getStatus()).toBe(503);
    expect((refused as ApiError).headers).toEqual({ 'Retry-After': '1' });
    a.finish('A');
    expect(await first).toBe('A');
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b', 'c']);
    b.finish('B');
    c.finish('C');
    expect(await Promise.all([second, third])).toEqual(['B', 'C']);
    expect(slots.load).toEqual({ active: 0, waiting: 0 });
  });

  it('frees the slot of a render that fails', async () => {
    const slots = new RenderSlots(1, 0);
    await expect(slots.run(() => Promise.reject(new Error('bad bytes')))).rejects.toThrow('bad bytes');
    await expect(slots.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});
