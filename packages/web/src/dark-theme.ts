/** Naive UI's dark theme in a chunk of its own: a light console never downloads it. */
export { darkTheme } from 'naive-ui';
