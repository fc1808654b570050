/** Shared building blocks for every place; import from here, not from the files. */
export { Badge, type BadgeTone } from './Badge.js';
export { Button, type ButtonProps } from './Button.js';
export { ChoiceChips, type ChoiceChipsProps } from './ChoiceChips.js';
export { ConfirmInPlace, type ConfirmInPlaceProps } from './ConfirmInPlace.js';
export { CopyButton } from './CopyButton.js';
export { DataTable, type Column, type DataTableProps } from './DataTable.js';
export { DetailList, type Detail } from './DetailList.js';
export { EmptyState, type EmptyStateProps } from './EmptyState.js';
export { ErrorBanner, type ErrorBannerProps } from './ErrorBanner.js';
export { Field, type FieldProps } from './Field.js';
export { Glossary } from './Glossary.js';
export { Icon, type IconName } from './Icon.js';
export { MarkdownText } from './MarkdownText.js';
export { Panel } from './Panel.js';
export { PathText } from './PathText.js';
export { PlaceHeader, type PlaceHeaderProps } from './PlaceHeader.js';
export { conversationName, formatCount, formatDateTime, formatDuration, formatPastTime, formatRelativeTime, providerIds, providerLabel } from './format.js';
export { countOf, formatBytes, listOf, nounFor, plainText, skippedLines, type NounForms } from './words.js';
