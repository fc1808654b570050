import { useState, type Key, type ReactElement, type ReactNode } from 'react';
import { Button } from './Button.js';
import './data-table.css';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Numbers and durations read best right-aligned. */
  align?: 'start' | 'end';
  /** Makes the column sortable by this value (null sorts last). */
  sortValue?: (row: Row) => string | number | null;
}

export interface DataTableProps<Row> {
  /** Names the table for screen readers; shown only to them unless `showCaption`. */
  caption: string;
  showCaption?: boolean;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
  /** The row the person chose last: highlighted, and marked current for assistive technology. */
  selectedKey?: Key | undefined;
  /** The column sorted first, and which way. */
  initialSort?: { header: string; direction: Direction };
  /** Extra class for a row (failures, warnings). */
  rowClass?: (row: Row) => string | undefined;
}

type Direction = 'ascending' | 'descending';

function compare(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

function sorted<Row>(rows: readonly Row[], column: Column<Row> | undefined, direction: Direction): readonly Row[] {
  if (!column?.sortValue) return rows;
  const value = column.sortValue;
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    // Empty values stay last whichever way the column is sorted.
    if (x === null || y === null) return compare(x, y);
    return sign * compare(x, y);
  });
}

/** A plain, accessible table that scrolls sideways inside itself rather than widening the page; sortable columns have a button in their header. */
export function DataTable<Row>({ caption, showCaption = false, columns, rows, rowKey, selectedKey, initialSort, rowClass }: DataTableProps<Row>): ReactElement {
  const [sort, setSort] = useState(initialSort);
  const shown = sorted(rows, columns.find((c) => c.header === sort?.header), sort?.direction ?? 'ascending');
  const toggle = (header: string) =>
    setSort((previous) => ({ header, direction: previous?.header === header && previous.direction === 'ascending' ? 'descending' : 'ascending' }));
  return (
    <div className="data-table" role="region" aria-label={caption} tabIndex={0}>
      <table>
        <caption className={showCaption ? 'data-table__caption' : 'visually-hidden'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={column.align === 'end' ? 'align-end' : undefined} aria-sort={sort?.header === column.header ? sort.direction : undefined}>
                {column.sortValue ? (
                  <Button variant="plain" className="data-table__sort" onClick={() => toggle(column.header)}>
                    {column.header}
                    <span className="data-table__arrow" aria-hidden="true">
                      {sort?.header === column.header ? (sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
                    </span>
                  </Button>
                ) : (
                  column.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => {
            const key = rowKey(row);
            const selected = selectedKey !== undefined && key === selectedKey;
            return (
              <tr key={key} className={[selected ? 'data-table__row--selected' : '', rowClass?.(row) ?? ''].filter(Boolean).join(' ') || undefined} aria-current={selected ? 'true' : undefined}>
                {columns.map((column) => (
                  <td key={column.header} className={column.align === 'end' ? 'align-end' : undefined}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
