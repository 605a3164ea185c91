import { Fragment, type ReactNode } from 'react';

/**
 * A small, safe Markdown preview: headings, paragraphs, bullet and numbered lists, fenced code,
 * inline code, bold and emphasis, built as React elements (never HTML from the file), so a wiki
 * page can contain nothing that runs. Anything else shows as its text.
 */
export function MarkdownView({ text }: { text: string }) {
  return <div className="markdown-view">{blocksOf(text)}</div>;
}

function blocksOf(text: string): ReactNode[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: ReactNode[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as string;
    const key = `block-${index}`;
    if (line.startsWith('```')) {
      const code: string[] = [];
      index += 1;
      while (index < lines.length && !(lines[index] as string).startsWith('```')) code.push(lines[index++] as string);
      index += 1;
      blocks.push(
        <pre key={key} className="pre-wrap">
          <code>{code.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min((heading[1] as string).length + 2, 6);
      const Tag = `h${level}` as 'h3';
      blocks.push(<Tag key={key}>{inline(heading[2] as string)}</Tag>);
      index += 1;
      continue;
    }
    const listPattern = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/;
    if (listPattern.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const items: ReactNode[] = [];
      while (index < lines.length && listPattern.test(lines[index] as string)) {
        items.push(<li key={`item-${index}`}>{inline(listPattern.exec(lines[index] as string)?.[1] ?? '')}</li>);
        index += 1;
      }
      blocks.push(ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>);
      continue;
    }
    if (line.trim() === '') {
      index += 1;
      continue;
    }
    const paragraph: string[] = [];
    while (
      index < lines.length &&
      (lines[index] as string).trim() !== '' &&
      !/^(#{1,6}\s|```)/.test(lines[index] as string) &&
      !listPattern.test(lines[index] as string)
    )
      paragraph.push(lines[index++] as string);
    blocks.push(<p key={key}>{inline(paragraph.join(' '))}</p>);
  }
  return blocks;
}

/** Inline code, bold and emphasis. */
function inline(text: string): ReactNode[] {
  const parts = text.split(/(`[^`]+`|\*\*[^*]+\*\*|\*[^*]+\*)/g);
  return parts.map((part, index) => {
    const key = `${index}-${part.length}`;
    if (part.startsWith('`') && part.endsWith('`') && part.length > 1) return <code key={key}>{part.slice(1, -1)}</code>;
    if (part.startsWith('**') && part.endsWith('**') && part.length > 4) return <strong key={key}>{part.slice(2, -2)}</strong>;
    if (part.startsWith('*') && part.endsWith('*') && part.length > 2) return <em key={key}>{part.slice(1, -1)}</em>;
    return <Fragment key={key}>{part}</Fragment>;
  });
}
