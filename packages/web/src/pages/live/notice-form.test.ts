/** The publishing form's request body: what is sent for each receiver kind and for actions. */
import { describe, expect, it } from 'vitest';
import { newAction, newNoticeForm, toPublishBody } from './notice-form.js';

describe('notice form', () => {
  it('sends an All notice without receivers, content or actions when none are given', () => {
    const form = { ...newNoticeForm(), title: '  Maintenance tonight ', receiverIds: [3] };
    expect(toPublishBody(form)).toEqual({ title: 'Maintenance tonight', type: 1, receiverType: 0 });
  });

  it('sends the receivers of a User or Role notice and the trimmed actions', () => {
    const action = { ...newAction(), label: ' Open ', url: ' /system/user ', confirm: '  ' };
    const post = {
      ...newAction(),
      label: 'Approve',
      method: 'POST' as const,
      url: '/api/v1/x',
      confirm: 'Sure?',
    };
    const form = {
      ...newNoticeForm(),
      title: 'Hello',
      content: 'Body',
      type: 3 as const,
      receiverType: 2 as const,
      receiverIds: [7, 9],
      actions: [action, post],
    };
    expect(toPublishBody(form)).toEqual({
      title: 'Hello',
      content: 'Body',
      type: 3,
      receiverType: 2,
      receiverIds: [7, 9],
      actions: [
        { label: 'Open', method: 'GET', url: '/system/user' },
        { label: 'Approve', method: 'POST', url: '/api/v1/x', confirm: 'Sure?' },
      ],
    });
  });

  it('gives every new action its own key', () => {
    expect(newAction().key).not.toBe(newAction().key);
  });
});
