import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONFIG_KEYS, configSchema } from '@nudge/platform';
import { z } from 'zod';

type Field = z.ZodType;

/** Strips default/optional/nullable wrappers to reach the field's base schema (to list enum choices). */
function unwrap(field: Field): Field {
  let current: Field = field;
  while (
    current instanceof z.ZodDefault ||
    current instanceof z.ZodOptional ||
    current instanceof z.ZodNullable
  ) {
    current = current.unwrap() as Field;
  }
  return current;
}

/**
 * The default as a variable would be written in the environment: the field's own parse of "no value"
 * (so transforms and coercions are honoured), '(unset)' where the variable has no default.
 */
function defaultText(field: Field): string {
  const parsed = field.safeParse(undefined);
  if (!parsed.success || parsed.data === undefined) return '(unset)';
  const value: unknown = parsed.data;
  if (Array.isArray(value)) return value.length ? code(value.join(',')) : '(empty)';
  return code(String(value));
}

const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

function descriptionText(field: Field): string {
  const description = field.description ?? '';
  const base = unwrap(field);
  const choices =
    base instanceof z.ZodEnum ? ` One of: ${base.options.map((o) => code(String(o))).join(', ')}.` : '';
  return (description + choices).trim();
}

/** The README's configuration table, generated from the one configuration schema. */
export function configTableMarkdown(): string {
  const rows = CONFIG_KEYS.map((key) => {
    const field = configSchema.shape[key] as Field;
    return `| ${code(key)} | ${cell(defaultText(field))} | ${cell(descriptionText(field))} |`;
  });
  return ['| Variable | Default | Description |', '|---|---|---|', ...rows].join('\n');
}

const invokedDirectly = (() => {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();

if (invokedDirectly) process.stdout.write(`${configTableMarkdown()}\n`);
