/**
 * Editor-wide keys, after Mintlify's keyboard-shortcuts page: Mod-S save, Mod-Shift-S switch
 * source/visual, Mod-K search files, Mod-\ hide/show the sidebar, Mod-Shift-D the diff of unsaved
 * changes. Mod is Cmd on macOS, Ctrl elsewhere. Caught in the capture phase so they work from
 * inside CodeMirror and the visual editor too (both would otherwise take Mod-K / Mod-S).
 */
export interface ShortcutActions { save(): void; toggleMode(): void; searchFiles(): void; toggleSidebar(): void; toggleDiff(): void }

const isMac = (): boolean => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

export function installShortcuts(actions: ShortcutActions): void {
  document.addEventListener(
    'keydown',
    (ev) => {
      const mod = isMac() ? ev.metaKey : ev.ctrlKey;
      if (!mod || ev.altKey) return;
      const key = ev.key.toLowerCase();
      let run: (() => void) | undefined;
      if (key === 's' && !ev.shiftKey) run = actions.save;
      else if (key === 's' && ev.shiftKey) run = actions.toggleMode;
      else if (key === 'k' && !ev.shiftKey) run = actions.searchFiles;
      else if (key === '\\' && !ev.shiftKey) run = actions.toggleSidebar;
      else if (key === 'd' && ev.shiftKey) run = actions.toggleDiff;
      if (!run) return;
      ev.preventDefault();
      ev.stopPropagation();
      run();
    },
    true,
  );
}
