/**
 * The configuration's shape as the zod-free check reads it (quick.ts): what a value must be at each
 * place, its default, and what becomes of an object's other keys. Derived from the zod schema
 * (shape-derive.ts, written to config-shape.ts at build time), never written by hand. `unsure`: zod
 * does more there than the shape can say (a refinement, a transform), so a value there goes to zod.
 */
export type Shape =
  | { t: 'unsure'; default?: unknown }
  | {
      t: 'object';
      props?: Record<string, Shape>;
      required?: string[];
      rest: 'keep' | 'drop' | Shape;
      keys?: Shape;
      default?: unknown;
    }
  | { t: 'array'; items: Shape; default?: unknown }
  | {
      t: 'string';
      min?: number;
      pattern?: [string, string];
      enum?: string[];
      url?: [string, string];
      default?: unknown;
    }
  | { t: 'integer' | 'number'; min?: number; above?: number; max?: number; default?: unknown }
  | { t: 'boolean'; default?: unknown };
