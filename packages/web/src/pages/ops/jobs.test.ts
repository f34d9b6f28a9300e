/** The job dialog's body: only the chosen trigger's fields, local one-shot times as ISO instants. */
import { describe, expect, it } from 'vitest';
import {
  canPause,
  canResume,
  fromLocalInput,
  type JobRow,
  jobBody,
  newJobForm,
  showsStoredSecrets,
  toLocalInput,
} from './jobs.js';

describe('job form', () => {
  it('sends only the fields of the chosen trigger and handler kind', () => {
    const form = { ...newJobForm(), code: ' nightly ', name: 'Nightly', handlerName: 'cleanup' };
    form.cronExpression = '0 30 3 * * ?';
    expect(jobBody(form)).toMatchObject({
      code: 'nightly',
      handlerKind: 1,
      handlerName: 'cleanup',
      triggerKind: 1,
      cronExpression: '0 30 3 * * ?',
      intervalSeconds: null,
      oneShotTime: null,
      propsJson: null,
    });
    form.triggerKind = 2;
    form.intervalSeconds = 30;
    expect(jobBody(form)).toMatchObject({ cronExpression: null, intervalSeconds: 30, oneShotTime: null });
    form.handlerKind = 2;
    form.propsJson = '{"url":"https://example.com"}';
    expect(jobBody(form)).toMatchObject({ handlerName: '', propsJson: '{"url":"https://example.com"}' });
  });

  it('turns the local one-shot time into an ISO instant and back', () => {
    const iso = fromLocalInput('2030-05-06T07:08');
    expect(iso).toMatch(/^2030-05-0\dT\d\d:08:00\.000Z$/);
    expect(toLocalInput(iso)).toBe('2030-05-06T07:08');
    expect(fromLocalInput('')).toBeNull();
    const form = { ...newJobForm(), triggerKind: 3 as const, oneShotTime: '2030-05-06T07:08' };
    expect(jobBody(form).oneShotTime).toBe(iso);
  });

  it("keeps the job's active window through an edit (an update without it cleared it)", () => {
    const row = {
      ...jobBody({
        ...newJobForm(),
        code: 'window',
        name: 'Window',
        handlerName: 'sync',
        cronExpression: '0 0 * * * ?',
      }),
      id: 8,
      startTime: '2030-01-01T00:00:30.500Z',
      endTime: '2031-01-01T00:00:59.999Z',
    } as unknown as JobRow;
    // To the second: the inputs show minutes, an untouched one sends the stored instant back.
    const body = jobBody(newJobForm(row));
    expect(body.startTime).toBe('2030-01-01T00:00:30.500Z');
    expect(body.endTime).toBe('2031-01-01T00:00:59.999Z');
    const moved = { ...newJobForm(row), startTime: '2030-02-01T00:00' };
    expect(jobBody(moved).startTime).toBe(fromLocalInput('2030-02-01T00:00'));
    // Emptied fields remove the window.
    const cleared = { ...newJobForm(row), startTime: '', endTime: '' };
    expect(jobBody(cleared)).toMatchObject({ startTime: null, endTime: null });
  });

  it('sends the props back as the API showed them, masked secrets included (the API keeps what *** stands for)', () => {
    const masked =
      '{"url":"https://example.com/hook","headers":{"Authorization":"***","Accept":"text/plain"}}';
    const row = {
      ...jobBody({ ...newJobForm(), code: 'hook', name: 'Hook', handlerKind: 2 }),
      id: 7,
      propsJson: masked,
    } as unknown as JobRow;
    const form = newJobForm(row);
    expect(showsStoredSecrets(form.propsJson)).toBe(true);
    expect(jobBody(form).propsJson).toBe(masked);
    // A compiled job's props are not in the form, and go back as they came.
    const compiled = newJobForm({
      ...row,
      handlerKind: 1,
      handlerName: 'sync',
      propsJson: '{"apiKey":"***"}',
    });
    expect(jobBody(compiled).propsJson).toBe('{"apiKey":"***"}');
    expect(showsStoredSecrets('{"url":"https://example.com"}')).toBe(false);
  });

  it('offers pause for ready and panic jobs, resume for paused and panic ones', () => {
    expect([1, 2, 3, 4].map((s) => canPause(s as 1))).toEqual([true, false, false, true]);
    expect([1, 2, 3, 4].map((s) => canResume(s as 1))).toEqual([false, true, false, true]);
  });
});
