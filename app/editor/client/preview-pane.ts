/**
 * The live preview: 300 ms after the last keystroke the page's source goes to `POST api/preview`
 * and the answer replaces the frame's document (a sandboxed srcdoc frame: the preview's scripts
 * run, but in an opaque origin with no access to the editor or its session). A request still in
 * flight when the next one starts is aborted. Errors come back as file:line; the server always
 * returns a page (the last good render or an error page), so the frame is never blank.
 */
import type { EditorApi, PreviewError } from './api.js';

export const PREVIEW_DELAY_MS = 300;

export interface PreviewPane {
  schedule(input: { branch: string; path: string; content: string }): void;
  /** Render now (opening a file). */
  now(input: { branch: string; path: string; content: string }): Promise<void>;
}

export function createPreviewPane(frame: HTMLIFrameElement, api: EditorApi, onErrors: (errors: PreviewError[]) => void): PreviewPane {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;
  let generation = 0;
  const run = async (input: { branch: string; path: string; content: string }): Promise<void> => {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    const mine = ++generation;
    try {
      // The site's dark theme when the writer's system is dark, as the console's colours are.
      const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
      const result = await api.preview(dark ? { ...input, dark } : input, controller.signal);
      if (mine !== generation) return;
      frame.srcdoc = result.html;
      frame.dataset.rendered = String(mine);
      onErrors(result.errors);
    } catch (err) {
      if (controller.signal.aborted || mine !== generation) return;
      onErrors([{ file: input.path, line: 1, message: `Preview unavailable: ${(err as Error).message}` }]);
    }
  };
  return {
    schedule(input) {
      clearTimeout(timer);
      timer = setTimeout(() => void run(input), PREVIEW_DELAY_MS);
    },
    now(input) {
      clearTimeout(timer);
      return run(input);
    },
  };
}
