/**
 * The one function of js-yaml 4 the renderer calls (the package ships no types, and
 * `@types/js-yaml` is not among the project's dependencies).
 */
declare module 'js-yaml' {
  export interface DumpOptions {
    indent?: number;
    noRefs?: boolean;
    skipInvalid?: boolean;
    lineWidth?: number;
    sortKeys?: boolean;
  }
  export function dump(value: unknown, options?: DumpOptions): string;
  const jsYaml: { dump: typeof dump };
  export default jsYaml;
}
