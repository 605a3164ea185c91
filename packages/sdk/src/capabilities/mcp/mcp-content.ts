/** A content block of an MCP tool result, as far as this client reads it. */
interface ContentBlock {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; text?: string; mimeType?: string; blob?: string };
}

/** The parts of an MCP `CallToolResult` the client turns into model input. */
export interface ToolResultLike {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

/**
 * Turns an MCP tool result into the text the model reads: text blocks as they are, embedded text
 * resources by their text, and short placeholders for images, audio, binary resources and links;
 * `structuredContent` as JSON when there is no text.
 */
export function resultToText(result: ToolResultLike): string {
  const blocks = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text ?? '');
        break;
      case 'image':
      case 'audio':
        parts.push(`[${block.type} ${block.mimeType ?? ''}, ${Math.floor(((block.data ?? '').length * 3) / 4)} bytes]`);
        break;
      case 'resource_link':
        parts.push(`[resource ${block.uri ?? ''}${block.name ? ` (${block.name})` : ''}]`);
        break;
      case 'resource':
        parts.push(block.resource?.text ?? `[resource ${block.resource?.uri ?? ''} ${block.resource?.mimeType ?? ''}]`);
        break;
      default:
        parts.push(`[${block.type} content]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}
