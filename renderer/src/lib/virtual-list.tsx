import { useState, type ReactNode } from 'react';

export interface VirtualListProps<T> {
  readonly items: readonly T[];
  /** Every row has this height (px): positions are arithmetic, no measuring. */
  readonly rowHeight: number;
  /** Visible height (px); shorter lists shrink to fit. */
  readonly height: number;
  readonly label: string;
  readonly renderRow: (item: T, index: number) => ReactNode;
  readonly keyOf: (item: T, index: number) => string;
}

const OVERSCAN = 6;

/**
 * A list that renders only the rows in view (plus a few), so a dialog listing thousands of files
 * scrolls as smoothly as one listing ten. Rows carry aria-setsize/aria-posinset so a screen reader
 * announces "row 12 of 158" although most rows are not in the DOM.
 */
export function VirtualList<T>({ items, rowHeight, height, label, renderRow, keyOf }: VirtualListProps<T>) {
  const [scrollTop, setScrollTop] = useState(0);
  const viewport = Math.min(height, items.length * rowHeight);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((scrollTop + viewport) / rowHeight) + OVERSCAN);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const item = items[i] as T;
    rows.push(
      <div
        key={keyOf(item, i)}
        role="listitem"
        aria-setsize={items.length}
        aria-posinset={i + 1}
        className="virtual-row"
        style={{ position: 'absolute', top: i * rowHeight, height: rowHeight, left: 0, right: 0 }}
      >
        {renderRow(item, i)}
      </div>,
    );
  }
  return (
    <div
      className="virtual-list"
      role="list"
      aria-label={label}
      data-count={items.length}
      tabIndex={0}
      style={{ height: viewport, overflowY: 'auto', position: 'relative' }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      <div style={{ height: items.length * rowHeight, position: 'relative' }}>{rows}</div>
    </div>
  );
}
