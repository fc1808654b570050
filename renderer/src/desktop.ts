/**
 * What only the desktop app offers the page, beside the contract: opening Steward's own folders in
 * the file manager. In a browser there is no bridge, and the panel hides what depends on it.
 */
export type FolderTarget = { kind: 'notes'; projectKey: string } | { kind: 'home' } | { kind: 'logs' };

interface DesktopBridge {
  openFolder?: (target: FolderTarget) => Promise<void>;
}

export function folderOpener(): ((target: FolderTarget) => Promise<void>) | undefined {
  const bridge = (window as unknown as { steward?: DesktopBridge }).steward;
  return typeof bridge?.openFolder === 'function' ? (target) => bridge.openFolder!(target) : undefined;
}
