/**
 * Whether the window is narrow (a phone: below 768 px): the layout then shows the sidebar as a drawer behind a
 * menu button. One media-query listener for the page, read as a ref.
 */
import { onBeforeUnmount, type Ref, ref } from 'vue';

/** Where the sidebar becomes a drawer (Naive UI's `m` breakpoint). */
export const NARROW_QUERY = '(max-width: 767.98px)';

/** True while `query` matches; follows the window's resizes until the component unmounts. */
export function useMediaQuery(query: string): Ref<boolean> {
  const list = typeof matchMedia === 'function' ? matchMedia(query) : undefined;
  const matches = ref(list?.matches ?? false);
  const update = (event: MediaQueryListEvent) => {
    matches.value = event.matches;
  };
  list?.addEventListener('change', update);
  onBeforeUnmount(() => list?.removeEventListener('change', update));
  return matches;
}
