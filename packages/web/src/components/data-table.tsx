import type { ReactNode } from 'react';

/** One column of a `DataTable`: its header and what a row shows in it. */
export interface Column<Row> {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** A stable React key when `header` is not a string. */
  key?: string;
}

/**
 * The console's one table of records (resources, apps, runs, sessions, members, keys and the run
 * view's details): a caption for screen readers (visible with `showCaption`), a header cell per
 * column with `scope="col"`, a row per record keyed by `rowKey`, and `empty` in one full-width
 * row when the list is loaded and empty (nothing while it loads: `rows` is `undefined`).
 */
export function DataTable<Row>({
  caption,
  showCaption = false,
  columns,
  rows,
  rowKey,
  rowClassName,
  empty,
  footer,
}: {
  caption: ReactNode;
  showCaption?: boolean;
  columns: readonly Column<Row>[];
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  rowClassName?: (row: Row) => string | undefined;
  /** What an empty, loaded list says (no row at all when not given). */
  empty?: ReactNode;
  /** Rows after the records (a total), inside the body. */
  footer?: ReactNode;
}) {
  const keyOf = (column: Column<Row>, index: number) =>
    column.key ?? (typeof column.header === 'string' ? column.header : String(index));
  // The wrapper scrolls sideways on a narrow screen instead of widening the page.
  return (
    <div className="table-scroll">
      <table className="table">
        <caption className={showCaption ? undefined : 'visually-hidden'}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th scope="col" key={keyOf(column, index)}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows?.map((row) => (
            <tr key={rowKey(row)} className={rowClassName?.(row)}>
              {columns.map((column, index) => (
                <td key={keyOf(column, index)}>{column.cell(row)}</td>
              ))}
            </tr>
          ))}
          {rows?.length === 0 && empty !== undefined ? (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          ) : null}
          {footer}
        </tbody>
      </table>
    </div>
  );
}
