import { z, type ZodType } from 'zod';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function scalar(s: Json): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return `"${s.enum.join('|')}"`;
  switch (s.type) {
    case 'string':
      return s.format === 'date-time' ? '"<ISO time>"' : '"..."';
    case 'number':
    case 'integer':
      return s.minimum !== undefined && s.maximum !== undefined ? `${String(s.minimum)}..${String(s.maximum)}` : '<number>';
    case 'boolean':
      return 'true|false';
    case 'null':
      return 'null';
    default:
      return '<any JSON>';
  }
}

function render(s: Json, indent: string): string {
  const variants = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (Array.isArray(variants)) {
    const rendered = variants.map((v) => render(v, `${indent} `));
    // Objects (e.g. one per operation) go one per line; small scalars stay inline ("..."|null).
    return variants.some((v) => v.type === 'object') ? `\n${indent} ${rendered.join(`\n${indent} `)}\n${indent}` : rendered.join('|');
  }
  if (s.type === 'array') {
    const items = isObject(s.items) ? render(s.items, indent) : '<any JSON>';
    return `[${items}]`;
  }
  if (s.type === 'object') {
    const props = isObject(s.properties) ? s.properties : {};
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const keys = Object.keys(props);
    if (keys.length === 0) return '{"<key>":<any JSON>}';
    return `{${keys.map((k) => `"${k}${required.has(k) ? '' : '?'}":${render(props[k] as Json, indent)}`).join(',')}}`;
  }
  return scalar(s);
}

/**
 * The compact JSON shape a prompt sends instead of the full JSON Schema, generated from its zod
 * output schema so the two cannot drift: every key is listed (`?` marks an optional one), enums
 * as "a|b", numbers with their range, union members one per line. The answer is still validated
 * with the schema itself.
 */
export function outputFormatOf(schema: ZodType): string {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  return render(json, '').trim();
}
