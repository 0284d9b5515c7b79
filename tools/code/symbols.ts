import type { Node, Tree } from 'web-tree-sitter';
import type { GrammarId } from './grammars';

/**
 * The symbols of a syntax tree that an outline shows: classes and their kin, functions and
 * methods, interfaces and types, with 1-based line ranges and their nesting. One table of node
 * types per grammar; a function directly inside a class-like symbol is called a method.
 */

export type SymbolKind = 'namespace' | 'module' | 'class' | 'struct' | 'interface' | 'trait' | 'impl' | 'enum' | 'record' | 'type' | 'function' | 'method' | 'constructor';

export interface CodeSymbol {
  readonly kind: SymbolKind;
  readonly name: string;
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  readonly children: CodeSymbol[];
}

interface Rule {
  readonly kind: SymbolKind;
  /** The symbol's name, or null when this node is not a symbol after all (a struct without a body). */
  readonly name?: (node: Node) => string | null;
}

/** Kinds whose functions are methods. */
const CONTAINERS: ReadonlySet<SymbolKind> = new Set(['class', 'struct', 'interface', 'trait', 'impl', 'enum', 'record']);

/** Node types that hold a name where a grammar has no `name` field (PowerShell). */
const NAME_TYPES = new Set(['identifier', 'type_identifier', 'property_identifier', 'constant', 'name', 'simple_name', 'function_name', 'field_identifier']);

function defaultName(node: Node): string | null {
  const named = node.childForFieldName('name');
  if (named) return named.text;
  for (const child of node.namedChildren) if (child && NAME_TYPES.has(child.type)) return child.text;
  return null;
}

/** A variable whose value is a function (`const load = async () => …`) is shown as that function. */
function functionValueName(node: Node): string | null {
  const value = node.childForFieldName('value');
  if (!value || !['arrow_function', 'function_expression', 'function', 'generator_function'].includes(value.type)) return null;
  return node.childForFieldName('name')?.text ?? null;
}

/** C/C++: the name inside a declarator chain (pointer, reference, function declarators), `A::f` kept whole. */
function declaratorName(node: Node): string | null {
  let d = node.childForFieldName('declarator');
  for (let depth = 0; d && depth < 8; depth++) {
    if (d.type === 'function_declarator') {
      const inner = d.childForFieldName('declarator');
      return inner ? inner.text : null;
    }
    d = d.childForFieldName('declarator');
  }
  return null;
}

/** Only a struct/class/enum with a body defines one; `struct S *p;` merely uses it. */
function definedTypeName(node: Node): string | null {
  return node.childForFieldName('body') ? defaultName(node) : null;
}

/** Go: `func (s *Server) Start()` → "Server.Start". */
function goMethodName(node: Node): string | null {
  const name = node.childForFieldName('name')?.text;
  if (!name) return null;
  const receiver = node.childForFieldName('receiver')?.namedChildren[0]?.childForFieldName('type')?.text;
  return receiver ? `${receiver.replace(/^\*/, '').replace(/\[.*$/, '')}.${name}` : name;
}

/** Rust: `impl Display for Point` → "Display for Point", `impl Point` → "Point". */
function rustImplName(node: Node): string | null {
  const type = node.childForFieldName('type')?.text;
  if (!type) return null;
  const trait = node.childForFieldName('trait')?.text;
  return trait ? `${trait} for ${type}` : type;
}

const typescript: Record<string, Rule> = {
  class_declaration: { kind: 'class' },
  abstract_class_declaration: { kind: 'class' },
  // `export default class { … }` and `const A = class { … }`: a class all the same, so its methods stay methods.
  class: { kind: 'class', name: (n) => n.childForFieldName('name')?.text ?? '(anonymous)' },
  interface_declaration: { kind: 'interface' },
  type_alias_declaration: { kind: 'type' },
  enum_declaration: { kind: 'enum' },
  internal_module: { kind: 'namespace' },
  module: { kind: 'namespace' },
  function_declaration: { kind: 'function' },
  generator_function_declaration: { kind: 'function' },
  method_definition: { kind: 'function' },
  abstract_method_signature: { kind: 'function' },
  variable_declarator: { kind: 'function', name: functionValueName },
  public_field_definition: { kind: 'function', name: functionValueName },
  field_definition: { kind: 'function', name: (n) => (n.childForFieldName('value')?.type === 'arrow_function' ? (n.childForFieldName('property')?.text ?? null) : null) },
};

const cpp: Record<string, Rule> = {
  namespace_definition: { kind: 'namespace', name: (n) => n.childForFieldName('name')?.text ?? '(anonymous)' },
  class_specifier: { kind: 'class', name: definedTypeName },
  struct_specifier: { kind: 'struct', name: definedTypeName },
  union_specifier: { kind: 'struct', name: definedTypeName },
  enum_specifier: { kind: 'enum', name: definedTypeName },
  function_definition: { kind: 'function', name: declaratorName },
  // A method declared in a class body and defined elsewhere.
  field_declaration: { kind: 'function', name: declaratorName },
};

const RULES: Record<GrammarId, Record<string, Rule>> = {
  typescript,
  tsx: typescript,
  javascript: typescript,
  python: {
    class_definition: { kind: 'class' },
    function_definition: { kind: 'function' },
  },
  java: {
    class_declaration: { kind: 'class' },
    interface_declaration: { kind: 'interface' },
    enum_declaration: { kind: 'enum' },
    record_declaration: { kind: 'record' },
    annotation_type_declaration: { kind: 'interface' },
    method_declaration: { kind: 'function' },
    constructor_declaration: { kind: 'constructor' },
  },
  'c-sharp': {
    namespace_declaration: { kind: 'namespace' },
    file_scoped_namespace_declaration: { kind: 'namespace' },
    class_declaration: { kind: 'class' },
    struct_declaration: { kind: 'struct' },
    interface_declaration: { kind: 'interface' },
    enum_declaration: { kind: 'enum' },
    record_declaration: { kind: 'record' },
    method_declaration: { kind: 'function' },
    constructor_declaration: { kind: 'constructor' },
    local_function_statement: { kind: 'function' },
  },
  go: {
    function_declaration: { kind: 'function' },
    method_declaration: { kind: 'method', name: goMethodName },
    type_spec: { kind: 'type' },
    type_alias: { kind: 'type' },
  },
  rust: {
    mod_item: { kind: 'module' },
    struct_item: { kind: 'struct' },
    enum_item: { kind: 'enum' },
    union_item: { kind: 'struct' },
    trait_item: { kind: 'trait' },
    impl_item: { kind: 'impl', name: rustImplName },
    type_item: { kind: 'type' },
    function_item: { kind: 'function' },
    function_signature_item: { kind: 'function' },
  },
  cpp,
  php: {
    namespace_definition: { kind: 'namespace', name: (n) => n.childForFieldName('name')?.text ?? null },
    class_declaration: { kind: 'class' },
    interface_declaration: { kind: 'interface' },
    trait_declaration: { kind: 'trait' },
    enum_declaration: { kind: 'enum' },
    function_definition: { kind: 'function' },
    method_declaration: { kind: 'function' },
  },
  ruby: {
    module: { kind: 'module' },
    class: { kind: 'class' },
    method: { kind: 'function' },
    singleton_method: { kind: 'function', name: (n) => { const name = n.childForFieldName('name')?.text; return name ? `self.${name}` : null; } },
  },
  bash: {
    function_definition: { kind: 'function' },
  },
  powershell: {
    function_statement: { kind: 'function' },
    class_statement: { kind: 'class' },
    class_method_definition: { kind: 'function' },
  },
};

/** Go's `type X struct` is a struct, `type X interface` an interface. */
function refinedKind(node: Node, kind: SymbolKind): SymbolKind {
  if (node.type !== 'type_spec') return kind;
  const type = node.childForFieldName('type')?.type;
  return type === 'struct_type' ? 'struct' : type === 'interface_type' ? 'interface' : kind;
}

// Deeper than any hand-written code nests symbols; keeps a pathological file from exhausting the stack.
const MAX_DEPTH = 64;

export function symbolsOf(tree: Tree, grammar: GrammarId): CodeSymbol[] {
  const rules = RULES[grammar];
  const top: CodeSymbol[] = [];

  function visit(node: Node, into: CodeSymbol[], parentKind: SymbolKind | null, depth: number): void {
    if (depth > MAX_DEPTH) return;
    for (const child of node.namedChildren) {
      if (!child) continue;
      const rule = rules[child.type];
      const name = rule ? (rule.name ?? defaultName)(child) : null;
      if (!rule || name === null || name.trim() === '') {
        visit(child, into, parentKind, depth + 1);
        continue;
      }
      let kind = refinedKind(child, rule.kind);
      if (kind === 'function' && parentKind !== null && CONTAINERS.has(parentKind)) kind = name === 'constructor' || name === '__init__' ? 'constructor' : 'method';
      const symbol: CodeSymbol = {
        kind,
        name: name.replace(/\s+/g, ' '),
        startLine: child.startPosition.row + 1,
        endLine: child.endPosition.row + 1 - (child.endPosition.column === 0 && child.endPosition.row > child.startPosition.row ? 1 : 0),
        children: [],
      };
      into.push(symbol);
      visit(child, symbol.children, kind, depth + 1);
    }
  }

  visit(tree.rootNode, top, null, 0);
  return top;
}

/** Symbols in the tree, nested ones included. */
export function countSymbols(symbols: readonly CodeSymbol[]): number {
  return symbols.reduce((n, s) => n + 1 + countSymbols(s.children), 0);
}
