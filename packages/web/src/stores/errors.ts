/**
 * The service's error catalogue (`GET /meta/error-codes`, public): code -> msgKey, fetched once per console and
 * shared by every page that shows a stored result code (login log, job log, import errors) as its message.
 */
import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { ApiClient } from '../api/client.js';
import { unwrap } from '../api/envelope.js';
import type { Translate } from '../api/messages.js';

export const useErrorCatalogStore = defineStore('svc-errors', () => {
  const keys = shallowRef(new Map<number, string>());
  let loading: Promise<void> | undefined;

  /** Fetches the catalogue once; a failed fetch is tried again at the next call. */
  function load(api: ApiClient): Promise<void> {
    loading ??= api
      .GET('/api/v1/meta/error-codes')
      .then(unwrap)
      .then((entries) => {
        keys.value = new Map(entries.map((e) => [e.code, e.msgKey]));
      })
      .catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
    return loading;
  }

  /**
   * The message of a result code: `0` is `success`, a known code its catalogue message (args filled in when
   * given), an unknown one 'Unknown error (code)'.
   */
  function messageOf(
    code: number,
    t: Translate,
    has: (key: string) => boolean,
    args?: Record<string, unknown>,
  ) {
    if (code === 0) return t('format.success');
    const key = keys.value.get(code);
    return key && has(key) ? t(key, args ?? {}) : `${t('error.unknown')} (${code})`;
  }

  return { keys, load, messageOf };
});
