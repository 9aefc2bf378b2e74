/** The `data:` events of a Server-Sent Events body, parsed as JSON (`[DONE]` kept as the string). */
export function sseEvents(text: string): unknown[] {
  return text
    .split('\n\n')
    .map((block) => block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n'))
    .filter((d) => d.length > 0)
    .map((d) => (d === '[DONE]' ? d : (JSON.parse(d) as unknown)));
}

export type StreamChunk = { type: string } & Record<string, unknown>;
