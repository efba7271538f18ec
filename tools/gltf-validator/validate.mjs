import validator from 'gltf-validator';
import fs from 'fs';
import nodePath from 'path';
const path = process.argv[2];
const data = new Uint8Array(fs.readFileSync(path));
// External buffers and images of a .gltf resolve beside the file (and only there).
const dir = nodePath.dirname(nodePath.resolve(path));
const external = (uri) => {
  const p = nodePath.resolve(dir, decodeURIComponent(uri));
  if (!p.startsWith(dir + nodePath.sep)) return Promise.reject('outside the asset folder');
  return fs.promises.readFile(p).then((b) => new Uint8Array(b));
};
const report = await validator.validateBytes(data, {uri: nodePath.basename(path), externalResourceFunction: external});
console.log(JSON.stringify({errors: report.issues.numErrors, warnings: report.issues.numWarnings, messages: report.issues.messages.filter(m => m.severity <= 1).slice(0, 10)}));
process.exit(report.issues.numErrors > 0 ? 1 : 0);
