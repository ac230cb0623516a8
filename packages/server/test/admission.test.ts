import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ProjectAdmission } from '../src/admission.js';

/** Admits `count` requests of `project`; throws when one is refused. */
function admitMany(admission: ProjectAdmission, project: string, count: number): Array<() => void> {
  return Array.from({ length: count }, () => {
    const end = admission.tryAdmit(project);
    if (end === undefined) throw new Error(`${project} was refused`);
    return end;
  });
}

describe('ProjectAdmission', () => {
  it('lets a lone project use the whole capacity, and no more', () => {
    const admission = new ProjectAdmission(4);
    const ends = admitMany(admission, 'a', 4);
    expect(admission.tryAdmit('a')).toBeUndefined();
    ends[0]?.();
    expect(admission.tryAdmit('a')).toBeTypeOf('function');
  });

  it("always admits a project's first request, and shares the capacity between the active projects", () => {
    const admission = new ProjectAdmission(4);
    const flood = admitMany(admission, 'a', 4);
    const quiet = admission.tryAdmit('b');
    expect(quiet).toBeTypeOf('function');
    // Past the capacity in all: b's second waits until a is back under its share.
    expect(admission.tryAdmit('b')).toBeUndefined();
    expect(admission.inProgress()).toBe(5);
    for (const end of flood.splice(0, 3)) end();
    // a has 1 of its share of 2, b has 1: each may have one more.
    expect(admission.tryAdmit('a')).toBeTypeOf('function');
    expect(admission.tryAdmit('a')).toBeUndefined();
    expect(admission.tryAdmit('b')).toBeTypeOf('function');
    expect(admission.tryAdmit('b')).toBeUndefined();
    expect(admission.inProgress('a')).toBe(2);
    expect(admission.inProgress('b')).toBe(2);
  });

  it('forgets a project with nothing in progress, and an end called twice counts once', () => {
    const admission = new ProjectAdmission(2);
    const [first, second] = admitMany(admission, 'a', 2);
    first?.();
    first?.();
    expect(admission.inProgress('a')).toBe(1);
    second?.();
    expect(admission.inProgress('a')).toBe(0);
    expect(admission.activeProjects).toBe(0);
    expect(admission.inProgress()).toBe(0);
  });

  it('keeps a request in progress while its handler runs, even after its client hung up', async () => {
    const admission = new ProjectAdmission(1);
    const raw = new EventEmitter();
    const request = {} as FastifyRequest;
    expect(admission.admit('a', request, { raw } as unknown as FastifyReply)).toBe(true);
    let finish: (value: string) => void = () => {};
    const handled = admission.holdWhile(request, new Promise<string>((resolve) => (finish = resolve)));
    raw.emit('close');
    expect(admission.inProgress('a')).toBe(1);
    finish('done');
    expect(await handled).toBe('done');
    expect(admission.inProgress('a')).toBe(0);
  });
});
