/**
 * Loads the `yaml` package on first use: only `apply` and YAML bodies need it, and every other
 * command starts faster without it.
 */
export function loadYaml(): Promise<typeof import('yaml')> {
  return import('yaml');
}
