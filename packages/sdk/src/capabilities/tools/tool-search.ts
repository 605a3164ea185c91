import type { Tool } from './tool.js';

/** One tool found by a search, with its score (higher is better). */
export interface ToolSearchHit {
  tool: Tool;
  score: number;
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/**
 * Ranks tools against a query (N-5). `select:a,b` picks tools by exact name. Otherwise each query
 * word scores: the whole name (10), a word of the name (4), part of the name (2), a word of the
 * description (1). Deterministic: ties are broken by name, so the same query always gives the same
 * answer (a resumed run sees what the first process saw).
 */
export function searchTools(tools: readonly Tool[], query: string, limit: number): ToolSearchHit[] {
  const trimmed = query.trim();
  if (trimmed.toLowerCase().startsWith('select:')) {
    const names = trimmed
      .slice('select:'.length)
      .split(',')
      .map((name) => name.trim());
    return names
      .flatMap((name) => tools.filter((tool) => tool.name === name).map((tool) => ({ tool, score: 100 })))
      .slice(0, limit);
  }
  const terms = words(trimmed);
  const hits: ToolSearchHit[] = [];
  for (const tool of tools) {
    const name = tool.name.toLowerCase();
    const nameWords = new Set(words(tool.name));
    const descriptionWords = new Set(words(tool.description));
    let score = 0;
    for (const term of terms) {
      if (name === term) score += 10;
      else if (nameWords.has(term)) score += 4;
      else if (name.includes(term)) score += 2;
      if (descriptionWords.has(term)) score += 1;
    }
    if (score > 0) hits.push({ tool, score });
  }
  return hits.sort((left, right) => right.score - left.score || left.tool.name.localeCompare(right.tool.name)).slice(0, limit);
}
