/** Shared building blocks for every place; import from here, not from the files. */
export { DataTable, type Column, type DataTableProps } from './DataTable.js';
export { DetailList, type Detail } from './DetailList.js';
export { EmptyState, type EmptyStateProps } from './EmptyState.js';
export { ErrorBanner, type ErrorBannerProps } from './ErrorBanner.js';
export { Icon, type IconName } from './Icon.js';
export { Panel } from './Panel.js';
export { PlaceHeader, type PlaceHeaderProps } from './PlaceHeader.js';
export { formatCount, formatDateTime, formatDuration, formatRelativeTime } from './format.js';
