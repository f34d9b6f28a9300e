/** Words of the formatters (src/format/) and of stored result codes. Both languages carry the same keys. */
export const formatEnUS: Record<string, string> = {
  'format.success': 'Success',
  'format.unknown': 'Unknown',
};

export const formatZhCN: Record<string, string> = {
  'format.success': '成功',
  'format.unknown': '未知',
};
