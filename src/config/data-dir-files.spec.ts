import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminTokenPath, DataDirFileError, keepGeneratedAdminToken, keepSandboxPort, readKeptSandboxPort } from './data-dir-files';
import { loadConfig } from './load-config';

describe('files kept in DATA_DIR', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'billing-datadir-')), 'nested', 'data');
  });
  afterEach(() => rmSync(join(dataDir, '..', '..'), { recursive: true, force: true }));

  it('keeps a generated admin token (mode 0600) and reuses it at the next start', () => {
    const first = keepGeneratedAdminToken(loadConfig({ DATA_DIR: dataDir }));
    expect(first.adminToken).toMatch(/^[0-9a-f]{48}$/);
    expect(first.adminTokenGenerated).toBe(true);
    expect(readFileSync(adminTokenPath(dataDir), 'utf8').trim()).toBe(first.adminToken);
    expect(statSync(adminTokenPath(dataDir)).mode & 0o777).toBe(0o600);

    const second = keepGeneratedAdminToken(loadConfig({ DATA_DIR: dataDir }));
    expect(second.adminToken).toBe(first.adminToken);
    expect(second.usesSandbox).toBe(true);
  });

  it('tightens a kept token file that others could read', () => {
    const first = keepGeneratedAdminToken(loadConfig({ DATA_DIR: dataDir }));
    chmodSync(adminTokenPath(dataDir), 0o644);
    expect(keepGeneratedAdminToken(loadConfig({ DATA_DIR: dataDir })).adminToken).toBe(first.adminToken);
    expect(statSync(adminTokenPath(dataDir)).mode & 0o777).toBe(0o600);
  });

  it('never writes or uses the file when ADMIN_TOKEN is set', () => {
    keepGeneratedAdminToken(loadConfig({ DATA_DIR: dataDir }));
    const config = keepGeneratedAdminToken(loadConfig({ DATA_DIR: dataDir, ADMIN_TOKEN: 'an-operator-chosen-token' }));
    expect(config.adminToken).toBe('an-operator-chosen-token');
    expect(config.adminTokenGenerated).toBe(false);
  });

  it('refuses a kept file that holds no usable token, saying how to fix it', () => {
    keepGeneratedAdminToken(loadConfig({ DATA_DIR: dataDir }));
    writeFileSync(adminTokenPath(dataDir), 'short\n');
    expect(() => keepGeneratedAdminToken(loadConfig({ DATA_DIR: dataDir }))).toThrow(DataDirFileError);
    expect(() => keepGeneratedAdminToken(loadConfig({ DATA_DIR: dataDir }))).toThrow(/delete it/);
  });

  it('keeps the sandbox port and ignores a file that holds no port', () => {
    expect(readKeptSandboxPort(dataDir)).toBeUndefined();
    keepSandboxPort(dataDir, 41234);
    expect(readKeptSandboxPort(dataDir)).toBe(41234);
    writeFileSync(join(dataDir, 'sandbox-port'), 'nope');
    expect(readKeptSandboxPort(dataDir)).toBeUndefined();
    writeFileSync(join(dataDir, 'sandbox-port'), '70000');
    expect(readKeptSandboxPort(dataDir)).toBeUndefined();
  });
});
