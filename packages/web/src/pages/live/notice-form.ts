/**
 * The notice publishing form as plain data, and the request body it becomes: empty optional fields are left out,
 * receivers only go with a Role or User notice, and an action keeps its confirmation text only when one is given.
 * The service checks the rest (45002–45004) and the page shows its catalog message.
 */
import type { components } from '../../api/schema.js';

export type NoticePublish = components['schemas']['NoticePublish'];

export interface ActionForm {
  /** A stable key for the list while rows are added and removed. */
  key: number;
  label: string;
  method: 'GET' | 'POST';
  url: string;
  confirm: string;
}

export interface NoticeForm {
  title: string;
  content: string;
  type: 1 | 2 | 3;
  receiverType: 0 | 1 | 2;
  receiverIds: number[];
  actions: ActionForm[];
}

let nextKey = 1;

export function newAction(): ActionForm {
  return { key: nextKey++, label: '', method: 'GET', url: '', confirm: '' };
}

export function newNoticeForm(): NoticeForm {
  return { title: '', content: '', type: 1, receiverType: 0, receiverIds: [], actions: [] };
}

export function toPublishBody(form: NoticeForm): NoticePublish {
  const content = form.content.trim();
  const actions = form.actions.map((a) => ({
    label: a.label.trim(),
    method: a.method,
    url: a.url.trim(),
    ...(a.confirm.trim() ? { confirm: a.confirm.trim() } : {}),
  }));
  return {
    title: form.title.trim(),
    type: form.type,
    receiverType: form.receiverType,
    ...(content ? { content } : {}),
    ...(form.receiverType !== 0 ? { receiverIds: [...form.receiverIds] } : {}),
    ...(actions.length > 0 ? { actions } : {}),
  };
}
