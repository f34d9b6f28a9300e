/** Words of the console's shell (layout, header, menu search, breadcrumbs, tabs) and of the shared table. */
export const shellEnUS: Record<string, string> = {
  'shell.table.settings': 'Table settings',
  'shell.table.density': 'Density',
  'shell.table.density.compact': 'Compact',
  'shell.table.density.default': 'Default',
  'shell.table.density.large': 'Large',
  'shell.table.columns': 'Columns',
  'shell.table.reset': 'Reset',
  'shell.table.failed': 'The list could not be loaded.',
  'shell.table.retry': 'Retry',
  'shell.table.empty': 'No data',
  'shell.theme.toDark': 'Switch to dark mode',
  'shell.theme.toLight': 'Switch to light mode',
};

export const shellZhCN: Record<string, string> = {
  'shell.table.settings': '表格设置',
  'shell.table.density': '密度',
  'shell.table.density.compact': '紧凑',
  'shell.table.density.default': '默认',
  'shell.table.density.large': '宽松',
  'shell.table.columns': '列',
  'shell.table.reset': '重置',
  'shell.table.failed': '列表加载失败。',
  'shell.table.retry': '重试',
  'shell.table.empty': '暂无数据',
  'shell.theme.toDark': '切换到深色模式',
  'shell.theme.toLight': '切换到浅色模式',
};
