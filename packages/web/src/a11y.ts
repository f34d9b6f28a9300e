/**
 * Accessibility repairs for markup Naive UI renders and its props cannot reach: a card's header (every modal
 * with `preset="card"`) carries `role="heading"` twice without the required `aria-level`, and the modal's
 * `role="dialog"` has no accessible name. One observer fixes them as they are inserted, so every page's
 * dialogs pass axe-core without each page repeating attributes: the header gets level 2 (the inner one, a
 * duplicate heading, becomes presentational), the dialog is labelled by its header text. A data table's body
 * scrolls sideways on a narrow screen: its scroll box takes the keyboard focus, so it can be scrolled without a
 * mouse (an empty table has nothing else focusable inside); so does the layout's content box, for a long page.
 */
const HEADING = '.n-card-header[role="heading"]:not([aria-level])';
const TABLE_SCROLL = '.n-data-table-base-table-body > .n-scrollbar-container:not([tabindex])';
/** The layout's content box: it scrolls a long page that may hold nothing focusable (the dashboard). */
const CONTENT_SCROLL = '.svc-content > .n-scrollbar > .n-scrollbar-container:not([tabindex])';

let sequence = 0;

function repair(root: ParentNode): void {
  for (const box of root.querySelectorAll<HTMLElement>(`${TABLE_SCROLL}, ${CONTENT_SCROLL}`))
    box.tabIndex = 0;
  for (const header of root.querySelectorAll<HTMLElement>(HEADING)) {
    header.setAttribute('aria-level', '2');
    const inner = header.querySelector<HTMLElement>('.n-card-header__main[role="heading"]');
    inner?.setAttribute('role', 'presentation');
    const dialog = header.closest<HTMLElement>('[role="dialog"]');
    if (dialog && !dialog.hasAttribute('aria-label') && !dialog.hasAttribute('aria-labelledby')) {
      header.id ||= `svc-dialog-title-${++sequence}`;
      dialog.setAttribute('aria-labelledby', header.id);
    }
  }
}

/** Starts the observer on `document.body` (a no-op outside a browser); answers a function that stops it. */
export function repairNaiveAccessibility(doc: Document | undefined = globalThis.document): () => void {
  if (!doc?.body || typeof MutationObserver === 'undefined') return () => {};
  repair(doc.body);
  const observer = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) if (node instanceof Element) repair(node.parentNode ?? node);
  });
  observer.observe(doc.body, { childList: true, subtree: true });
  return () => observer.disconnect();
}
