import type { Key, ReactElement, ReactNode } from 'react';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Numbers and durations read best right-aligned. */
  align?: 'start' | 'end';
}

export interface DataTableProps<Row> {
  /** Names the table for screen readers; shown only to them unless `showCaption`. */
  caption: string;
  showCaption?: boolean;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
}

/** A plain, accessible table that scrolls sideways inside itself rather than widening the page. */
export function DataTable<Row>({ caption, showCaption = false, columns, rows, rowKey }: DataTableProps<Row>): ReactElement {
  return (
    <div className="data-table" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption className={showCaption ? 'data-table__caption' : 'visually-hidden'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={column.align === 'end' ? 'align-end' : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header} className={column.align === 'end' ? 'align-end' : undefined}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
