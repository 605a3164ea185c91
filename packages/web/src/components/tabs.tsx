import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';

/** One tab: its id, the words on it, and what its panel shows while it is selected. */
export interface TabItem {
  id: string;
  label: ReactNode;
  content: ReactNode;
}

/**
 * The WAI-ARIA tabs pattern, as the editors use it: a labelled tab list whose tabs are selected by
 * click, Enter or Space, and by the arrow keys, Home and End (focus follows selection, so there
 * is one tab stop); only the selected tab's panel is mounted (every panel starts with fields or links, so the panel
 * itself is no extra tab stop). Written
 * here rather than taken from a UI kit: the kit's version cost the workflow editor about 8 KiB of
 * compressed JavaScript (roving focus, collection and presence machinery) for two tabs.
 * `data-state="active"` marks the selected tab for the style sheet.
 */
export function Tabs({ label, items, defaultValue }: { label: string; items: readonly TabItem[]; defaultValue?: string }) {
  const [active, setActive] = useState(defaultValue ?? items[0]?.id);
  const baseId = useId();
  const tabs = useRef(new Map<string, HTMLButtonElement>());
  const tabId = (id: string) => `${baseId}-tab-${id}`;
  const panelId = (id: string) => `${baseId}-panel-${id}`;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.id === active);
    const last = items.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index <= 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    const target = next === undefined ? undefined : items[next];
    if (!target) return;
    event.preventDefault();
    setActive(target.id);
    tabs.current.get(target.id)?.focus();
  };
  const selected = items.find((item) => item.id === active);
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} aria-orientation="horizontal" className="tab-list" onKeyDown={onKeyDown}>
        {items.map((item) => {
          const isActive = item.id === active;
          return (
            <button
              key={item.id}
              type="button"
              role="tab"
              id={tabId(item.id)}
              aria-selected={isActive}
              aria-controls={panelId(item.id)}
              tabIndex={isActive ? 0 : -1}
              data-state={isActive ? 'active' : 'inactive'}
              className="tab"
              ref={(element) => {
                if (element) tabs.current.set(item.id, element);
                else tabs.current.delete(item.id);
              }}
              onClick={() => setActive(item.id)}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {selected ? (
        <div
          key={selected.id}
          role="tabpanel"
          id={panelId(selected.id)}
          aria-labelledby={tabId(selected.id)}
          data-state="active"
          className="tab-panel"
        >
          {selected.content}
        </div>
      ) : null}
    </div>
  );
}
