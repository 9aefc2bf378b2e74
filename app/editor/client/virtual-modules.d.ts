// The visual mode, resolved by scripts/build-editor.mjs: app/editor/client/visual/index.ts when it
// exists, else a module whose mountVisualEditor is undefined (source mode only).
declare module 'virtual:editor-visual' {
  export const mountVisualEditor:
    | ((el: HTMLElement, source: string, options: { onChange(source: string): void }) => { getSource(): string; destroy(): void })
    | undefined;
}
