/**
 * What every console page with writes shares: the translator, the typed client, the user store, the catalog
 * message of a failed call, a write that says "Done", a delete confirmation and a row button shown only with its
 * permission code. `useCrudPage` builds on it; a page without a table can call it alone.
 */
import { type ButtonProps, NButton, useDialog, useMessage } from 'naive-ui';
import { h, type VNode } from 'vue';
import { useI18n } from 'vue-i18n';
import { messageOf } from '../api/messages.js';
import { useApi } from '../context.js';
import { useUserStore } from '../stores/user.js';

/** What {@link usePageFeedback} answers (named, so that the library's declarations need no vue-i18n internals). */
export interface PageFeedback {
  t: (key: string, named?: Record<string, unknown>) => string;
  te: (key: string) => boolean;
  api: ReturnType<typeof useApi>;
  user: ReturnType<typeof useUserStore>;
  message: ReturnType<typeof useMessage>;
  /** Shows the catalog message of a failed call. */
  fail: (e: unknown) => void;
  /** Runs a write; on success shows "Done" and runs `then` (usually a reload); on failure the catalog message. */
  write: (run: () => Promise<unknown>, then?: () => unknown) => Promise<boolean>;
  /** Asks before a delete (the dialog's buttons: Delete / Cancel), then runs it as a write. */
  confirmDelete: (run: () => Promise<unknown>, then?: () => unknown, text?: string) => void;
  /** A small text button, rendered only when the user holds `code`. */
  action: (
    label: string,
    code: string,
    onClick: () => void,
    testid: string,
    type?: 'primary' | 'error',
  ) => VNode | null;
}

/** What the feedback is made of: the page's translator, client, user store, message and dialog providers. */
export interface FeedbackParts {
  t: PageFeedback['t'];
  te: PageFeedback['te'];
  api: PageFeedback['api'];
  user: PageFeedback['user'];
  message: PageFeedback['message'];
  dialog: ReturnType<typeof useDialog>;
}

/** The page's translator, typed client, user store and message helpers; call it in `<script setup>`. */
export function usePageFeedback(): PageFeedback {
  const { t, te } = useI18n();
  return createPageFeedback({
    t,
    te,
    api: useApi(),
    user: useUserStore(),
    message: useMessage(),
    dialog: useDialog(),
  });
}

/** The feedback over explicit parts (what `usePageFeedback` injects; a test hands its own). */
export function createPageFeedback(parts: FeedbackParts): PageFeedback {
  const { t, te, api, user, message, dialog } = parts;
  const fail = (e: unknown) => {
    message.error(messageOf(e, t, te));
  };

  async function write(run: () => Promise<unknown>, then?: () => unknown): Promise<boolean> {
    try {
      await run();
      message.success(t('common.success'));
      await then?.();
      return true;
    } catch (e) {
      fail(e);
      return false;
    }
  }

  function confirmDelete(run: () => Promise<unknown>, then?: () => unknown, text?: string): void {
    dialog.warning({
      title: t('common.delete'),
      content: text ?? t('common.confirmDelete'),
      positiveText: t('common.delete'),
      negativeText: t('common.cancel'),
      // Error-type button: white on the darker red keeps a 4.5:1 contrast (the warning orange does not).
      positiveButtonProps: { type: 'error', 'data-testid': 'confirm-delete' } as ButtonProps,
      onPositiveClick: () => {
        void write(run, then);
      },
    });
  }

  function action(
    label: string,
    code: string,
    onClick: () => void,
    testid: string,
    type: 'primary' | 'error' = 'primary',
  ): VNode | null {
    return user.can(code)
      ? h(NButton, { size: 'small', text: true, type, onClick, 'data-testid': testid }, () => label)
      : null;
  }

  return { t, te, api, user, message, fail, write, confirmDelete, action };
}
