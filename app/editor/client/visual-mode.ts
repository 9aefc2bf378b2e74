/**
 * Integration point with the visual mode (app/editor/client/visual/, another helper's folder):
 * `virtual:editor-visual` resolves to its index.ts when present (scripts/build-editor.mjs), else
 * to a module without mountVisualEditor, and the page then offers source mode only.
 */
import * as visualModule from 'virtual:editor-visual';

export interface VisualHandle { getSource(): string; destroy(): void }
export type MountVisualEditor = (el: HTMLElement, source: string, options: { onChange(source: string): void }) => VisualHandle;

export const mountVisualEditor: MountVisualEditor | undefined = visualModule.mountVisualEditor;
