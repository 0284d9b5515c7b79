import ts from 'typescript';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Finds every place that reaches a tool's `execute` (SPEC G-GATE): calls, method references
 * (`const f = tool.execute`), element access (`tool['execute']`) and destructuring
 * (`const { execute } = tool`). Resolution goes through the type checker, so it follows the
 * ToolSpec interface however the tool value was obtained — a rule matching by text or package
 * name would silently match nothing the day someone renames a variable.
 */
export interface ExecuteReference {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

export function listSourceFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
    }
  };
  for (const d of dirs) walk(join(root, d));
  return out;
}

export function findExecuteReferences(root: string, files: readonly string[], virtualFiles: Record<string, string> = {}): ExecuteReference[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    esModuleInterop: true,
    types: ['node'],
  };
  const host = ts.createCompilerHost(options, true);
  const baseGetSourceFile = host.getSourceFile.bind(host);
  const baseFileExists = host.fileExists.bind(host);
  host.getSourceFile = (name, lang, onError, create) =>
    name in virtualFiles ? ts.createSourceFile(name, virtualFiles[name]!, lang, true) : baseGetSourceFile(name, lang, onError, create);
  host.fileExists = (name) => name in virtualFiles || baseFileExists(name);

  const program = ts.createProgram([...files, ...Object.keys(virtualFiles)], options, host);
  const checker = program.getTypeChecker();
  const kitFile = join(root, 'tools', 'kit', 'define-tool.ts');

  const isToolExecute = (symbol: ts.Symbol | undefined): boolean => {
    if (!symbol) return false;
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return (target.declarations ?? []).some(
      (d) =>
        d.getSourceFile().fileName.split('/').join(sep) === kitFile &&
        ts.isMethodSignature(d) &&
        ts.isInterfaceDeclaration(d.parent) &&
        d.parent.name.text === 'ToolSpec' &&
        d.name.getText() === 'execute',
    );
  };

  const found: ExecuteReference[] = [];
  const wanted = new Set([...files, ...Object.keys(virtualFiles)].map((f) => f.split(sep).join('/')));
  for (const sf of program.getSourceFiles()) {
    if (!wanted.has(sf.fileName)) continue;
    const visit = (node: ts.Node) => {
      let hit = false;
      if (ts.isPropertyAccessExpression(node) && node.name.text === 'execute') {
        hit = isToolExecute(checker.getSymbolAtLocation(node.name));
      } else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) && node.argumentExpression.text === 'execute') {
        hit = isToolExecute(checker.getSymbolAtLocation(node.argumentExpression));
      } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
        const key = node.propertyName ?? node.name;
        if (ts.isIdentifier(key) && key.text === 'execute') {
          const type = checker.getTypeAtLocation(node.parent);
          hit = isToolExecute(type.getProperty('execute'));
        }
      }
      if (hit) {
        const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
        found.push({ file: relative(root, sf.fileName), line: line + 1, text: node.getText(sf).slice(0, 80) });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}
