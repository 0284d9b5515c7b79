'use strict';
/**
 * electron-builder afterPack hook: flips Electron's fuses in the packaged executable, then reads
 * them back and fails the build if any is not in the state we asked for. afterPack runs before
 * signing, so the signature covers the flipped binary (fuses must be flipped before signing).
 *
 * Fuses are switches compiled into the Electron binary; setting them in the package means no
 * environment variable or command-line flag on the office PC can turn them back:
 *   RunAsNode off                           ELECTRON_RUN_AS_NODE=1 would turn Baram into a plain
 *                                           Node.js interpreter with the user's rights.
 *   EnableNodeOptionsEnvironmentVariable off NODE_OPTIONS=--require evil.js would inject code.
 *   EnableNodeCliInspectArguments off       --inspect would open a debugger port into main,
 *                                           where the gate and the audit writer live.
 *   EnableEmbeddedAsarIntegrityValidation on app.asar must match the hash electron-builder
 *                                           embeds (Windows and macOS; Linux has no check).
 *   OnlyLoadAppFromAsar on                  no loose app/ folder next to app.asar is loaded
 *                                           instead of it, so the integrity check cannot be sidestepped.
 * GrantFileProtocolExtraPrivileges stays at Electron's default: the page is loaded from file://
 * and its ES module scripts need those privileges.
 *
 * @electron/fuses is resolved through electron-builder's own dependency chain
 * (electron-builder → app-builder-lib → @electron/fuses), so the hook needs no extra package.
 */
const path = require('node:path');

function loadFuses() {
  const builderDir = path.dirname(require.resolve('electron-builder/package.json'));
  const libDir = path.dirname(require.resolve('app-builder-lib/package.json', { paths: [builderDir] }));
  return require(require.resolve('@electron/fuses', { paths: [libDir] }));
}

/** Desired state per FuseV1Options name. */
const FUSES = Object.freeze({
  RunAsNode: false,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
});

/** The executable electron-builder produced, computed the way electron-builder's own fuse step does. */
function electronBinaryPath(context) {
  const platform = context.electronPlatformName;
  const extensions = { darwin: '.app', mas: '.app', win32: '.exe', linux: '' };
  if (!(platform in extensions)) throw new Error(`after-pack: unknown platform '${platform}'`);
  const name = platform === 'linux' ? context.packager.executableName : context.packager.appInfo.productFilename;
  return path.join(context.appOutDir, `${name}${extensions[platform]}`);
}

/** Flips FUSES in the binary and verifies them; throws (failing the build) on any mismatch. */
async function flipAndVerify(binaryPath, fuses = loadFuses()) {
  const { flipFuses, getCurrentFuseWire, FuseVersion, FuseV1Options } = fuses;
  const config = { version: FuseVersion.V1 };
  for (const [name, enabled] of Object.entries(FUSES)) {
    if (!(name in FuseV1Options)) throw new Error(`after-pack: @electron/fuses does not know fuse '${name}'`);
    config[FuseV1Options[name]] = enabled;
  }
  await flipFuses(binaryPath, config);

  const wire = await getCurrentFuseWire(binaryPath);
  const ENABLE = '1'.charCodeAt(0);
  const DISABLE = '0'.charCodeAt(0);
  const wrong = Object.entries(FUSES)
    .filter(([name, enabled]) => wire[FuseV1Options[name]] !== (enabled ? ENABLE : DISABLE))
    .map(([name]) => name);
  if (wrong.length > 0) {
    throw new Error(`after-pack: fuses not set in ${binaryPath}: ${wrong.join(', ')} (removed in this Electron version?)`);
  }
  return wire;
}

async function afterPack(context) {
  const binary = electronBinaryPath(context);
  await flipAndVerify(binary);
  console.log(`  • fuses set  file=${binary}  ${Object.entries(FUSES).map(([k, v]) => `${k}=${v}`).join(' ')}`);
}

module.exports = afterPack;
module.exports.default = afterPack;
module.exports.FUSES = FUSES;
module.exports.electronBinaryPath = electronBinaryPath;
module.exports.flipAndVerify = flipAndVerify;
