/** The re-authentication dialog's state: the client chain asks, the dialog answers (true once the window is open). */
import { reactive } from 'vue';

export interface ReauthState {
  open: boolean;
  resolve: ((done: boolean) => void) | undefined;
}

export function createReauth(): {
  state: ReauthState;
  ask: () => Promise<boolean>;
  answer: (done: boolean) => void;
} {
  const state = reactive<ReauthState>({ open: false, resolve: undefined });
  return {
    state,
    ask: () =>
      new Promise<boolean>((resolve) => {
        state.resolve = resolve;
        state.open = true;
      }),
    answer(done) {
      state.open = false;
      const resolve = state.resolve;
      state.resolve = undefined;
      resolve?.(done);
    },
  };
}
