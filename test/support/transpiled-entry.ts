import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import * as ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
/** Inside node_modules, so the transpiled files find the packages the way the sources do. */
const CACHE = join(ROOT, 'node_modules', '.cache', 'test-child-processes');
const SOURCE_FOLDERS = ['src', 'test'];

/**
 * The node arguments that run `entry` (a .ts file relative to the repository root) in a child process: its sources
 * transpiled ahead, file by file, as `ts-node --transpile-only` would do on every start. A child then starts in
 * about a second of CPU instead of ten, which is what decides whether a daemon a test spawns is up in time on a
 * busy machine. Stack traces still name the .ts lines (inline source maps).
 */
export function nodeArgsFor(entry: string): string[] {
  const out = transpileSources();
  return ['--enable-source-maps', join(out, entry.replace(/\.ts$/, '.js'))];
}

let transpiledTo: string | undefined;

/**
 * Transpiles every .ts file of src/ and test/ (specs aside) whose output was made from other content (each output has
 * the hash of its source beside it: file times can go back, with a checkout or a copy); answers the output folder.
 */
function transpileSources(): string {
  if (transpiledTo) return transpiledTo;
  const options = compilerOptions();
  // One folder per checkout, compiler and options: two working copies never share outputs.
  const out = join(CACHE, sha256(ROOT, ts.version, JSON.stringify(options)).slice(0, 16));
  for (const folder of SOURCE_FOLDERS) {
    for (const file of typeScriptFiles(join(ROOT, folder))) {
      const target = join(out, relative(ROOT, file)).replace(/\.ts$/, '.js');
      const source = readFileSync(file, 'utf8');
      const hash = sha256(source);
      if (readIfExists(`${target}.sha256`) === hash) continue;
      const { outputText } = ts.transpileModule(source, { compilerOptions: options, fileName: file });
      mkdirSync(dirname(target), { recursive: true });
      // Written aside and renamed: a process reading them never sees half a file.
      writeAtomically(target, outputText);
      writeAtomically(`${target}.sha256`, hash);
    }
  }
  transpiledTo = out;
  return out;
}

function sha256(...parts: string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}

function writeAtomically(path: string, content: string): void {
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, content);
  renameSync(partial, path);
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function compilerOptions(): ts.CompilerOptions {
  const path = join(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(path, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, path);
  return { ...options, module: ts.ModuleKind.CommonJS, sourceMap: false, inlineSourceMap: true, inlineSources: true, declaration: false, noEmit: false };
}

function typeScriptFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) files.push(...typeScriptFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}
