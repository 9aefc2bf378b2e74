/** Small DOM helpers: typed lookups and a promise around a <dialog> form. */

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`editor page is missing #${id}`);
  return el as T;
}

/**
 * Open a dialog (modal: focus moves in, Esc closes, focus returns to the opener) and resolve with
 * the value of the button that closed it ('cancel' for Esc). `validate` may refuse an 'ok' with a
 * message shown in the dialog's alert line.
 */
export function ask(dialog: HTMLDialogElement, validate?: (value: string) => Promise<string | undefined> | string | undefined): Promise<string> {
  const opener = document.activeElement as HTMLElement | null;
  const alertLine = dialog.querySelector<HTMLElement>('.dialog-error');
  if (alertLine) alertLine.textContent = '';
  return new Promise((resolve) => {
    const form = dialog.querySelector('form')!;
    const onSubmit = async (ev: SubmitEvent): Promise<void> => {
      const value = (ev.submitter as HTMLButtonElement | null)?.value ?? 'ok';
      if (value !== 'cancel' && validate) {
        ev.preventDefault();
        const problem = await validate(value);
        if (problem) {
          if (alertLine) alertLine.textContent = problem;
          return;
        }
        dialog.close(value);
      }
    };
    const onClose = (): void => {
      form.removeEventListener('submit', onSubmit);
      dialog.removeEventListener('close', onClose);
      opener?.focus();
      resolve(dialog.returnValue || 'cancel');
    };
    dialog.returnValue = '';
    form.addEventListener('submit', onSubmit);
    dialog.addEventListener('close', onClose);
    dialog.showModal();
  });
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<Record<string, string>> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) if (v !== undefined) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
